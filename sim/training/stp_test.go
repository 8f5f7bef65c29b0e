//go:build !js

package training

import (
	"bytes"
	"strings"
	"testing"

	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// stpRun is Llama 3 8B on eight H100s, tp 4 × pp 2 (on one node, or
// with each tensor-parallel group across two nodes of two GPUs, whose
// all-reduces then outlast some compute), eight microbatches of the
// given size, under schedule sch (analytic).
func stpRun(sch string, mbs int, split bool) scenario.Scenario {
	s := scenario.Default()
	s.Strategy = Name
	s.Model = scenario.Model{Preset: "llama3-8b"}
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 1, GPUsPerNode: 8}
	if split {
		s.Cluster.Nodes, s.Cluster.GPUsPerNode = 4, 2
	}
	s.Parallel.TP, s.Parallel.PP, s.Parallel.Microbatches, s.Parallel.Schedule = 4, 2, 8, sch
	s.Parallel.MicroBatchSize = mbs
	s.Fidelity = "analytic"
	return s
}

// opTimes is each op's compute and tensor-parallel communication on GPU
// 0's and GPU 4's devices (0 and 1), by device and op.
func opTimes(tl *timeline.Timeline, p int) [][2]map[pipeline.Op]units.Time {
	out := make([][2]map[pipeline.Op]units.Time, p)
	for d := range out {
		out[d] = [2]map[pipeline.Op]units.Time{{}, {}}
	}
	kinds := map[timeline.Kind]pipeline.Kind{timeline.Forward: pipeline.F, timeline.Backward: pipeline.B, timeline.BackwardWeight: pipeline.W}
	for _, sp := range tl.Spans {
		if sp.GPU%4 != 0 || sp.Kind == timeline.Optimizer {
			continue
		}
		d, chunk := sp.Stage, 0
		if d >= p {
			d, chunk = 2*p-1-d, 1
		}
		kind, ok := kinds[sp.Kind]
		i := 0
		if !ok { // the tp-comm span after the op, labelled as it
			i, kind = 1, map[byte]pipeline.Kind{'F': pipeline.F, 'B': pipeline.B}[sp.Label[0]]
		}
		out[d][i][pipeline.Op{Kind: kind, Microbatch: sp.Microbatch, Chunk: chunk}] += sp.End - sp.Start
	}
	return out
}

// TestSTPBraidedUnitsCostTheirMax: under schedule stp each op of a
// braided pair (DualPipeV's F of one chunk followed by a B of the other)
// exposes max(0, AR − C') of its tensor-parallel all-reduces AR, C' the
// other half's compute, so a braided unit costs max(compute, all-reduce);
// compute and all-reduces are read from the unbraided run (dualpipev,
// the same order). The iteration gains at most the unbraided run's
// exposed TP time. Microbatch size 1 leaves some all-reduces longer than
// the other half's compute. Same seed, byte-identical trace.
func TestSTPBraidedUnitsCostTheirMax(t *testing.T) {
	for _, c := range []struct {
		mbs   int
		split bool
	}{{1, false}, {4, false}, {1, true}} {
		mbs := c.mbs
		plain := mustSimulate(t, stpRun("dualpipev", mbs, c.split))
		braided := mustSimulate(t, stpRun("stp", mbs, c.split))
		sch, err := pipeline.DualPipeV(2, 8)
		if err != nil {
			t.Fatal(err)
		}
		a, b := opTimes(plain, 2), opTimes(braided, 2)
		partial := 0
		for d, order := range sch.Order {
			partner := map[pipeline.Op]pipeline.Op{}
			for i := 0; i+1 < len(order); i++ {
				if f, bw := order[i], order[i+1]; f.Kind == pipeline.F && bw.Kind == pipeline.B && f.Chunk != bw.Chunk {
					partner[f], partner[bw] = bw, f
				}
			}
			for _, o := range order {
				if o.Kind == pipeline.W {
					continue
				}
				want := a[d][1][o]
				if q, ok := partner[o]; ok {
					c := a[d][0][q]
					if w := (pipeline.Op{Kind: pipeline.W, Microbatch: q.Microbatch, Chunk: q.Chunk}); q.Kind == pipeline.B && followsAtOnce(order, q, w) {
						c += a[d][0][w]
					}
					want = max(0, want-c)
					if want > 0 {
						partial++
					}
				}
				if got := b[d][1][o]; got != want || b[d][0][o] != a[d][0][o] {
					t.Errorf("mbs %d device %d %v: compute %v, exposed all-reduce %v; want %v and max(0, AR − C') = %v", mbs, d, o, b[d][0][o], got, a[d][0][o], want)
				}
			}
		}
		gain := plain.End - braided.End
		exposed := units.Round(plain.Summarize().ExposedBy["tp"])
		if gain <= 0 || gain > exposed {
			t.Errorf("mbs %d: stp gains %v over dualpipev; want 0 < gain ≤ the exposed TP time %v", mbs, gain, exposed)
		}
		t.Logf("mbs %d, split %v: dualpipev %v, stp %v (gain %v, exposed TP %v); %d braided ops still expose some all-reduce", mbs, c.split, plain.End, braided.End, gain, exposed, partial)
	}
	var traces [2]bytes.Buffer
	for i := range traces {
		if err := mustSimulate(t, stpRun("stp", 1, true)).WriteChromeTrace(&traces[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
		t.Error("two runs of the same scenario and seed gave different traces")
	}
}

// followsAtOnce reports whether w comes right after b in order.
func followsAtOnce(order []pipeline.Op, b, w pipeline.Op) bool {
	for i := 0; i+1 < len(order); i++ {
		if order[i] == b {
			return order[i+1] == w
		}
	}
	return false
}

// TestSTPCaption: the demo's caption compares the braided run with the
// same order unbraided and with ZB-V.
func TestSTPCaption(t *testing.T) {
	parts, _, _ := strategytest.Caption(t, Strategy{}, `model: {preset: llama3-8b}
cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}
parallel: {tp: 8, pp: 2, microbatches: 8, schedule: stp, sequence_parallel: true, tp_comm_overlap: true}`)
	for _, p := range parts {
		if strings.HasPrefix(p.Text, "unbraided (dualpipev)") {
			ratio := p.Values[3].V
			if ratio < 1.05 || ratio > 1.15 {
				t.Errorf("STP over ZB-V %.3f×; want about 1.10 (393 ms against 432 ms)", ratio)
			}
			return
		}
	}
	t.Errorf("caption %v has no comparison with the unbraided run", parts)
}
