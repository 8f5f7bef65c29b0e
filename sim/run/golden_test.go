package run

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/golden"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// dump prints a timeline as text, one operation a line, for golden files
// that are reviewed as diffs.
func dump(tl *timeline.Timeline) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s), end %v\n", tl.Title, tl.Fidelity, tl.End)
	for _, s := range tl.Spans {
		fmt.Fprintf(&b, "span     %-10v %-10v GPU %d %s %s stage %d\n", s.Start, s.End, s.GPU, s.Kind, s.Label, s.Stage)
	}
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		fmt.Fprintf(&b, "transfer %-10v %-10v %d→%d step %d chunk %d %v %s\n", x.Start, x.End, x.Src, x.Dst, x.Step, x.Chunk, x.Bytes, x.Phase)
	}
	for _, c := range tl.Collectives {
		fmt.Fprintf(&b, "collective %s %s ranks %d %v: %v–%v\n", c.Algorithm, c.Name, c.Ranks, c.Bytes, c.Start, c.End)
	}
	if a := tl.Async; a != nil {
		fmt.Fprintf(&b, "async %s bound %d, %v sent\n", a.Mode, a.Bound, a.Bytes)
		for _, it := range a.Iterations {
			fmt.Fprintf(&b, "iteration %-10v %-10v worker %d k %d wait %v lag %d limit %d staleness %d\n",
				it.Start, it.End, it.Worker, it.Index, it.Wait, it.Lag, it.Limit, it.Staleness)
		}
	}
	if sp := tl.Split; sp != nil {
		fmt.Fprintf(&b, "split %s %s clients %v compute %v client layers %v node layers %v\n", sp.Mode, sp.Model, sp.Clients, sp.Compute, sp.ClientLayers, sp.NodeLayers)
		for _, r := range sp.Rounds {
			fmt.Fprintf(&b, "round %d %-10v %-10v slowest %d server %v–%v\n", r.Index, r.Start, r.End, r.Slowest, r.ServerStart, r.ServerEnd)
		}
		for _, m := range tl.Memory {
			fmt.Fprintf(&b, "memory GPU %d peak %v of %v\n", m.GPU, m.Peak, m.Capacity)
		}
	}
	if r := tl.RLHF; r != nil {
		fmt.Fprintf(&b, "rlhf %s queue %d staleness %d sync every %d\n", r.Placement, r.QueueCapacity, r.Staleness, r.SyncEvery)
		for _, p := range r.Pools {
			fmt.Fprintf(&b, "pool %q %s GPUs %v models %v $%g/h peak %v of %v\n", p.Name, p.GPU, p.GPUs, p.Models, p.PricePerHour, p.PeakMemory, p.Capacity)
		}
		for _, st := range r.Steps {
			fmt.Fprintf(&b, "step %d gen %v–%v train %v–%v version %d\n", st.Index, st.GenStart, st.GenEnd, st.TrainStart, st.TrainEnd, st.Version)
		}
		for _, q := range r.Queue {
			fmt.Fprintf(&b, "queue %v depth %d\n", q.At, q.Depth)
		}
	}
	if in := tl.Inference; in != nil {
		for _, m := range tl.Memory {
			fmt.Fprintf(&b, "memory GPU %d weights %v buffers %v peak %v kv %v\n", m.GPU, m.Parameters, m.Buffers, m.Peak, m.KVAt(tl.End))
		}
		for _, x := range in.Microbatches {
			fmt.Fprintf(&b, "served replica %d batch %d requests %d first token %v done %v\n", x.Replica, x.Index, x.Requests, x.FirstToken, x.Done)
		}
		for _, x := range in.Bubbles {
			fmt.Fprintf(&b, "bubble %-10v %-10v GPU %d %s\n", x.Start, x.End, x.GPU, x.Kind)
		}
	}
	return b.String()
}

func TestGoldenTimelines(t *testing.T) {
	for _, file := range golden.Files(t, "../scenario/testdata/*.yaml") {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := scenario.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			tl, err := Simulate(s)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", name+".timeline.txt"), []byte(dump(tl)))
		})
	}
}
