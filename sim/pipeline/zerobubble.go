package pipeline

// zeroBubbleOrder is one device's order in the handcrafted zero-bubble
// schedules of Qi et al. 2024: warmup forwards, then repeatedly one B, the
// W that is lag backwards old (if any), and the next forward; the W's still
// deferred run at the end. A W is deferred to fill the bubbles that a B
// waiting on its successor would otherwise leave.
func zeroBubbleOrder(m, warmup, lag int) []Op {
	ops := make([]Op, 0, 3*m)
	nf, nb, nw := 0, 0, 0
	for ; nf < min(warmup, m); nf++ {
		ops = append(ops, fwd(nf))
	}
	for nb < m {
		ops = append(ops, bwd(nb))
		nb++
		if nb-nw > lag {
			ops = append(ops, wgt(nw))
			nw++
		}
		if nf < m {
			ops = append(ops, fwd(nf))
			nf++
		}
	}
	for ; nw < m; nw++ {
		ops = append(ops, wgt(nw))
	}
	return ops
}
