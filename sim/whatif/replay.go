package whatif

import (
	"cmp"
	"container/heap"
	"slices"

	"paraplay/sim/kineto"
	"paraplay/sim/units"
)

// Replay re-times each trace's kernels under c (see the package comment)
// and returns new traces, which share everything but Kernels and Steps
// with the measured ones and go to kineto.Timeline and kineto.Analyze as
// they do.
func Replay(traces []*kineto.Trace, c Change) ([]*kineto.Trace, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	out := make([]*kineto.Trace, len(traces))
	for i, t := range traces {
		out[i] = replayTrace(t, c)
	}
	return out, nil
}

// replayTrace replays one rank's trace: each device alone, then the steps.
func replayTrace(t *kineto.Trace, c Change) *kineto.Trace {
	n := *t
	n.Kernels = slices.Clone(t.Kernels)
	devs := map[int16][]int{}
	for i := range t.Kernels {
		d := t.Kernels[i].Device
		devs[d] = append(devs[d], i)
	}
	for _, idx := range devs {
		replayDevice(t, n.Kernels, idx, c)
	}
	n.Steps = make([]kineto.Step, len(t.Steps))
	for i, s := range t.Steps {
		n.Steps[i] = kineto.Step{Number: s.Number, Start: s.Start + shift(t, n.Kernels, s.Start), End: s.End + shift(t, n.Kernels, s.End)}
	}
	slices.SortStableFunc(n.Kernels, func(a, b kineto.Kernel) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.Device, b.Device), cmp.Compare(a.Stream, b.Stream), cmp.Compare(a.End, b.End))
	})
	return &n
}

// shift is how far the replay moves instant b of the measured clock: as
// far as the kernel that last started at or before b moved its end, once
// it had ended by b, else its start; 0 before any kernel. t's kernels are
// in start order and replayed holds them re-timed at the same indexes.
func shift(t *kineto.Trace, replayed []kineto.Kernel, b units.Time) units.Time {
	i, _ := slices.BinarySearchFunc(t.Kernels, b+1, func(k kineto.Kernel, x units.Time) int { return cmp.Compare(k.Start, x) })
	if i == 0 {
		return 0
	}
	k, r := &t.Kernels[i-1], &replayed[i-1]
	if k.End <= b {
		return r.End - k.End
	}
	return r.Start - k.Start
}

// ends is a done kernel's measured and replayed end.
type ends struct{ measured, replayed units.Time }

// byEnd is a min-heap of done kernels by measured end.
type byEnd []ends

func (h byEnd) Len() int           { return len(h) }
func (h byEnd) Less(i, j int) bool { return h[i].measured < h[j].measured }
func (h byEnd) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *byEnd) Push(x any)        { *h = append(*h, x.(ends)) }
func (h *byEnd) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// replayDevice re-times the kernels idx (in start order) of one device,
// writing them into out: s′ = R′ + (s − R) (the package comment).
func replayDevice(t *kineto.Trace, out []kineto.Kernel, idx []int, c Change) {
	origin := t.Kernels[idx[0]].Start
	// Done kernels not yet known to precede the current one, by kind, and
	// the latest ends of those that do: [0] computing, [1] NCCL.
	var pending [2]byEnd
	done := [2]ends{{origin, origin}, {origin, origin}}
	last := map[int32]ends{} // each stream's last kernel
	for _, i := range idx {
		k := &t.Kernels[i]
		for j := range pending {
			for pending[j].Len() > 0 && pending[j][0].measured <= k.Start {
				e := heap.Pop(&pending[j]).(ends)
				done[j] = ends{max(done[j].measured, e.measured), max(done[j].replayed, e.replayed)}
			}
		}
		comm := k.Class == kineto.Collective
		r := ends{max(done[0].measured, done[1].measured), max(done[0].replayed, done[1].replayed)}
		if c.Overlap && !comm {
			r.replayed = done[0].replayed
		}
		if p, ok := last[k.Stream]; ok {
			r = ends{max(r.measured, p.measured), max(r.replayed, p.replayed)}
		}
		start := r.replayed + (k.Start - r.measured)
		if l, ok := t.LaunchOf(k); ok && c.HostFixed {
			start = max(start, min(k.Start, l.End)) // not before its launch: min keeps the identity exact
		}
		o := &out[i]
		o.Start, o.End = start, start+c.duration(t, k)
		e := ends{k.End, o.End}
		last[k.Stream] = e
		kind := 0
		if comm {
			kind = 1
		}
		heap.Push(&pending[kind], e)
	}
}
