package scene

import (
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

const ms = units.Millisecond

// ringTimeline hand-builds one data-parallel iteration on n GPUs joined by a
// directed ring i → (i+1) mod n: forward 0–2ms and backward 2–6ms on every
// GPU, then a ring all-reduce of n−1 reduce-scatter steps and n−1 all-gather
// steps, each step one 0.5ms transfer per link. In reduce-scatter step s,
// GPU i sends chunk (i−s) mod n; in all-gather step s it sends chunk
// (i+1−s) mod n, the one it finished reducing — the textbook ring.
func ringTimeline(n int) *timeline.Timeline {
	const chunk = 16 * units.MiB
	tl := &timeline.Timeline{Title: "Data parallel, ring all-reduce", Fidelity: "detailed"}
	for i := range n {
		tl.GPUs = append(tl.GPUs, timeline.GPU{ID: i, Name: "GPU " + itoa(i)})
		tl.Links = append(tl.Links, timeline.Link{ID: i, From: i, To: (i + 1) % n, Bandwidth: 50 * units.GBps, Latency: 5 * units.Microsecond})
	}
	for i := range n {
		tl.Spans = append(tl.Spans, timeline.Span{GPU: i, Kind: timeline.Forward, Label: "F0", Start: 0, End: 2 * ms})
	}
	for i := range n {
		tl.Spans = append(tl.Spans, timeline.Span{GPU: i, Kind: timeline.Backward, Label: "B0", Start: 2 * ms, End: 6 * ms})
	}
	steps := 2 * (n - 1)
	for step := range steps {
		start := 6*ms + units.Time(step)*ms/2
		phase, c := "reduce-scatter", -step
		if step >= n-1 {
			phase, c = "all-gather", 1-(step-(n-1))
		}
		for i := range n {
			tl.Transfers.Append(timeline.Transfer{
				Path: []int{i}, Src: i, Dst: (i + 1) % n, Bytes: chunk, Collective: 0,
				Step: step, Chunk: ((i+c)%n + n) % n, Phase: phase,
				Start: start, End: start + ms/2,
			})
		}
	}
	end := 6*ms + units.Time(steps)*ms/2
	tl.Collectives = []timeline.Collective{{Name: "all-reduce", Algorithm: "ring", Ranks: n, Bytes: chunk * units.Bytes(n), Start: 6 * ms, End: end}}
	tl.End = end
	return tl
}

// find returns the item with the given ID, or false.
func find(dl DrawList, id string) (Item, bool) {
	for _, it := range dl.Items {
		if it.ID == id {
			return it, true
		}
	}
	return Item{}, false
}

// editTransfer has f change transfer i of tl.
func editTransfer(tl *timeline.Timeline, i int, f func(x *timeline.Transfer)) {
	xs := transfersOf(tl)
	f(&xs[i])
	tl.Transfers = timeline.TransfersOf(xs...)
}

// transfersOf is a copy of tl's transfers.
func transfersOf(tl *timeline.Timeline) []timeline.Transfer {
	xs := make([]timeline.Transfer, tl.Transfers.Len())
	for i := range xs {
		xs[i] = tl.Transfers.At(i)
	}
	return xs
}
