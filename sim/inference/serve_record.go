package inference

import (
	"cmp"
	"sort"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// observe notes when each op ends and grows the KV cache of the GPUs an
// op wrote to.
func (r *infRun) observe(id int) {
	for len(r.finishAt) <= id {
		r.finishAt = append(r.finishAt, -1)
	}
	now := r.g.Now()
	r.finishAt[id] = now
	if id >= len(r.meta) {
		return
	}
	m := &r.meta[id]
	if m.kvAdd == 0 {
		return
	}
	for _, g := range m.kvGPUs {
		r.kvBytes[g] += m.kvAdd
		pts := r.kv[g]
		if n := len(pts); n > 0 && pts[n-1].At == now {
			pts[n-1].Bytes = r.kvBytes[g]
		} else {
			r.kv[g] = append(pts, timeline.MemoryPoint{At: now, Bytes: r.kvBytes[g]})
		}
	}
}

// record writes the memory of every GPU and the Inference record.
func (r *infRun) record() {
	tl := r.g.Timeline()
	in := &timeline.Inference{Replicas: r.dp, Stages: r.pp, TP: r.tp, Requests: r.in.Requests * r.dp,
		Prompt: r.in.Prompt, Output: r.in.Output, Sampling: r.in.Sampling, Shared: r.in.SharedWeights,
		KVBytesPerToken: make([]units.Bytes, len(tl.GPUs)), KVCapacity: make([]int64, len(tl.GPUs))}
	for g := 0; g < r.n; g++ {
		mem := timeline.Memory{GPU: g, Capacity: r.gpu.HBM, Parameters: r.resident[g], Buffers: r.buffer[g],
			Activations: r.g.ActivationsOf(g).Points, KVCache: r.kv[g]}
		mem.Peak = peakOf(&mem)
		tl.Memory = append(tl.Memory, mem)
		in.KVBytesPerToken[g] = r.kvPer[g]
		in.KVCapacity[g] = KVCapacity(r.gpu.HBM, mem.Static()+r.workspace[g], r.kvPer[g])
	}
	for i, b := range r.batches {
		b.FirstToken, b.Done = r.finishAt[r.tokenOp[i][0]], r.finishAt[r.tokenOp[i][1]]
		in.Microbatches = append(in.Microbatches, b)
	}
	in.Bubbles = r.bubbles()
	tl.Inference = in
}

// peakOf is the largest total of m over the run: the maximum of At at
// every instant either series changes.
func peakOf(m *timeline.Memory) units.Bytes {
	peak := m.Static()
	for _, series := range [][]timeline.MemoryPoint{m.Activations, m.KVCache} {
		for _, p := range series {
			peak = max(peak, m.At(p.At))
		}
	}
	return peak
}

// bubbles gives every idle interval of every GPU a kind. Between two ops
// of a GPU, the gap ends when the second op's last dependency finished;
// following that dependency back through joins and delays:
//
//   - a message (an activation, a sampled token, a fetched layer): the part
//     of the gap after the op that sent it finished is inter-stage (the
//     send's overhead and its time on the link); the part before takes
//     the kind of that sender
//   - a sender (or a dependency) that is model work on another GPU:
//     imbalance; host work or a CPU lane's sample: intra-stage
//
// A Host span is itself an intra-stage bubble. The gap before a GPU's
// first op and after its last is fill-drain.
func (r *infRun) bubbles() []timeline.Bubble {
	tl := r.g.Timeline()
	type use struct {
		id         int
		start, end units.Time
	}
	byGPU := make([][]use, r.n)
	for id, m := range r.meta {
		if m.role != roleCompute && m.role != roleHost {
			continue
		}
		end := r.finishAt[id]
		for _, g := range m.gpus {
			if g < r.n {
				byGPU[g] = append(byGPU[g], use{id, end - m.dur, end})
			}
		}
	}
	var out []timeline.Bubble
	add := func(g int, kind string, a, b units.Time) {
		if b > a {
			out = append(out, timeline.Bubble{GPU: g, Kind: kind, Start: a, End: b})
		}
	}
	for g, uses := range byGPU {
		sort.Slice(uses, func(i, j int) bool { return uses[i].start < uses[j].start })
		var prev units.Time
		for i, u := range uses {
			if i == 0 {
				add(g, timeline.BubbleFill, 0, u.start)
			} else if u.start > prev {
				r.classify(g, u.id, prev, u.start, add)
			}
			if r.meta[u.id].role == roleHost {
				add(g, timeline.BubbleIntraStage, u.start, u.end)
			}
			prev = max(prev, u.end)
		}
		add(g, timeline.BubbleFill, prev, tl.End)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return cmp.Or(cmp.Compare(out[i].GPU, out[j].GPU), cmp.Compare(out[i].Start, out[j].Start)) < 0
	})
	return out
}

// classify splits the gap [from, to) before op id on GPU g by what it
// waited for.
func (r *infRun) classify(g, id int, from, to units.Time, add func(int, string, units.Time, units.Time)) {
	dep := r.binding(id)
	for dep >= 0 && from < to {
		m := &r.meta[dep]
		switch m.role {
		case roleMessage:
			sender := r.sender(dep)
			at := from
			if sender >= 0 {
				at = max(from, min(to, r.finishAt[sender]))
			}
			add(g, timeline.BubbleInterStage, at, to)
			to, dep = at, sender
		case roleHost, roleCPU:
			add(g, timeline.BubbleIntraStage, from, to)
			return
		default:
			add(g, timeline.BubbleImbalance, from, to)
			return
		}
	}
	add(g, timeline.BubbleImbalance, from, to)
}

// binding is the dependency of op id that finished last, looking through
// joins; −1 when it has none.
func (r *infRun) binding(id int) int {
	best := -1
	for _, d := range r.meta[id].deps {
		if d >= len(r.meta) {
			continue
		}
		if r.meta[d].role == roleOther && len(r.meta[d].deps) > 0 {
			d = r.binding(d)
		}
		if d >= 0 && (best < 0 || r.finishAt[d] > r.finishAt[best]) {
			best = d
		}
	}
	return best
}

// sender is the op that a message waited for, through delays and joins:
// the work that produced what it carries; −1 when none.
func (r *infRun) sender(msg int) int {
	d := r.binding(msg)
	for d >= 0 && r.meta[d].role == roleDelay {
		d = r.binding(d)
	}
	return d
}
