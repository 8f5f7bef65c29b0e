package pipeline

import "fmt"

// Interleaved returns Megatron-LM's interleaved 1F1B schedule (Narayanan et
// al. 2021, SC'21, §2.2.2 and Figure 4 bottom): each device holds v model
// chunks, model stage k on device k mod p, and microbatches advance through
// the chunks in groups of p. Device d runs (p−d−1)·2 + (v−1)·p warm-up
// forwards (all m·v when fewer), then alternates, then drains, as
// Megatron-LM's forward_backward_pipelining_with_interleaving does. The
// bubble shrinks to (p−1)(T_F+T_B+T_W)/v for per-stage times, at the cost
// of p(1 + (p−1)/(p·v)) stage-equivalents of activations on device 0.
// Megatron requires m to be a multiple of p; so does Interleaved.
func Interleaved(p, m, v int) (Schedule, error) {
	switch {
	case p < 1 || m < 1 || v < 1:
		return Schedule{}, fmt.Errorf("pipeline: interleaved: p = %d, m = %d, v = %d; all must be at least 1", p, m, v)
	case m%p != 0:
		return Schedule{}, fmt.Errorf("pipeline: interleaved: m = %d microbatches is not a multiple of p = %d stages (Megatron's rule for interleaving)", m, p)
	}
	s := newSchedule("interleaved", p, m, v, loopLayout(p, v))
	total := m * v
	for d := range s.Order {
		warmup := min((p-d-1)*2+(v-1)*p, total)
		ops := make([]Op, 0, 2*total)
		for k := 0; k < warmup; k++ {
			ops = append(ops, virtual(F, k, p, v))
		}
		for k := 0; k < total-warmup; k++ {
			ops = append(ops, virtual(F, warmup+k, p, v), virtual(B, k, p, v))
		}
		for k := total - warmup; k < total; k++ {
			ops = append(ops, virtual(B, k, p, v))
		}
		s.Order[d] = ops
	}
	return s, nil
}

// virtual maps a device's k-th forward (or backward) to its op: groups of p
// microbatches go through chunk 0, 1, …, v−1 (backwards: v−1, …, 0) before
// the next group starts.
func virtual(kind Kind, k, p, v int) Op {
	chunk := (k / p) % v
	if kind == B {
		chunk = v - 1 - chunk
	}
	return Op{Kind: kind, Microbatch: (k/(p*v))*p + k%p, Chunk: chunk}
}
