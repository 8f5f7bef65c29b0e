package moe

// place puts a layer's kept copies on the expert-parallel GPUs. Without
// redundant replicas expert e lives on GPU e/(experts/ep). With them
// (EPLB), each is added in turn to the expert whose replicas carry the
// most copies each (ties: the lower index), a replicated expert's copies
// split evenly over its replicas, and all replicas are packed heaviest
// first onto the GPU with the least load that has a free slot,
// (experts + redundant)/ep slots each (ties: the lower GPU): EPLB's
// replicate-then-pack balancing.
func place(l Layout, redundant int, kept []float64) (slots [][]float64, load []float64) {
	ep := max(l.EP, 1)
	slots, load = make([][]float64, ep), make([]float64, ep)
	if redundant == 0 {
		per := l.Experts / ep
		for e, k := range kept {
			slots[e/per] = append(slots[e/per], k)
			load[e/per] += k
		}
		return slots, load
	}
	replicas := make([]int, len(kept))
	for e := range replicas {
		replicas[e] = 1
	}
	for range redundant {
		best := 0
		for e := range kept {
			if kept[e]*float64(replicas[best]) > kept[best]*float64(replicas[e]) {
				best = e
			}
		}
		replicas[best]++
	}
	var all []float64
	for e, k := range kept {
		for range replicas[e] {
			all = append(all, k/float64(replicas[e]))
		}
	}
	// Heaviest first: a stable insertion sort (a few hundred replicas).
	for i := 1; i < len(all); i++ {
		for k := i; k > 0 && all[k] > all[k-1]; k-- {
			all[k], all[k-1] = all[k-1], all[k]
		}
	}
	free := len(all) / ep
	for _, c := range all {
		j := -1
		for g := range load {
			if len(slots[g]) < free && (j < 0 || load[g] < load[j]) {
				j = g
			}
		}
		slots[j] = append(slots[j], c)
		load[j] += c
	}
	return slots, load
}
