package opgraph

import (
	"math"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/nccltest"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// chain is n identical dense layers of width w: stages that balance
// exactly.
func chain(n, w int) Graph {
	g := Graph{Name: "chain"}
	for i := 0; i < n; i++ {
		o := Op{Name: "dense", Kind: Dense, In: w, Out: w, H: 1, W: 1, Steps: 1}
		if i > 0 {
			o.Inputs = []int{i - 1}
		}
		g.Ops = append(g.Ops, o)
	}
	return g
}

// TestGPipeClosedForm holds a model split of equal stages to GPipe's
// makespan (Huang et al. 2019): microbatch 0 crosses the n stages, the
// last stage runs m forwards and m backwards (2f each) back to back, and
// microbatch 0's gradient crosses back, so
//
//	T = (m + n − 1)·3f + 2(n − 1)·c
//
// with f a stage's forward and c one activation's send, α + bytes/B over
// the link between neighbours.
func TestGPipeClosedForm(t *testing.T) {
	for _, c := range []struct{ gpus, m int }{{8, 8}, {4, 16}, {2, 1}} {
		g := chain(8*c.gpus, 4096)
		r := Run{GPU: "h100-sxm", GPUs: c.gpus, Batch: 32 * c.m, Split: Model, Microbatches: c.m}
		tl, err := Simulate(g, r)
		if err != nil {
			t.Fatal(err)
		}
		gpu, _ := hw.LookupGPU("h100-sxm")
		var f units.Time
		for _, o := range g.Ops[:8] {
			f += forwardTime(o, 32, gpu)
		}
		tp, _ := nccltest.Topology(hostScenario(r))
		alpha, bw, err := topo.NewRouter(tp).PathCost(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		send := alpha + bw.TransferTime(outBytes(g.Ops[0], 32))
		n, m := units.Time(c.gpus), units.Time(c.m)
		want := (m+n-1)*3*f + 2*(n-1)*send
		if d := math.Abs(float64(tl.End - want)); d > 1e-6*float64(want)+float64(4*n) {
			t.Errorf("%d GPUs, m %d: makespan %v, GPipe's closed form %v", c.gpus, c.m, tl.End, want)
		}
	}
}

// TestResNetAndLSTMOnEightGPUs trains ResNet-50 and the seq2seq LSTM on
// eight H100s both ways. A data split's forward on each GPU is the
// graph's priced forward for its share of the batch and the run sums
// 2 bytes a parameter; a model split's stages hold every operator once.
func TestResNetAndLSTMOnEightGPUs(t *testing.T) {
	res, _ := ResNet50(224)
	lstm, _ := Seq2SeqLSTM(30, 30)
	gpu, _ := hw.LookupGPU("h100-sxm")
	for _, g := range []Graph{res, lstm} {
		var fwd units.Time
		for _, o := range g.Ops {
			fwd += forwardTime(o, 32, gpu)
		}
		dp, err := Simulate(g, Run{GPU: "h100-sxm", GPUs: 8, Batch: 256, Split: Data})
		if err != nil {
			t.Fatal(err)
		}
		var got units.Time
		for _, sp := range dp.Spans {
			if sp.GPU == 0 && sp.Kind == timeline.Forward {
				got += sp.End - sp.Start
			}
		}
		if got != fwd {
			t.Errorf("%s data split: GPU 0 forward %v, want %v", g.Name, got, fwd)
		}
		mp, err := Simulate(g, Run{GPU: "h100-sxm", GPUs: 8, Batch: 256, Split: Model, Microbatches: 8})
		if err != nil {
			t.Fatal(err)
		}
		busy := map[int]bool{}
		for _, sp := range mp.Spans {
			busy[sp.GPU] = true
		}
		if len(busy) != 8 {
			t.Errorf("%s model split: %d GPUs compute, want 8", g.Name, len(busy))
		}
		t.Logf("%s, batch 256 on 8 H100s: data parallel %v, GPipe model parallel (8 microbatches) %v", g.Name, dp.End, mp.End)
	}
}

// TestRunErrors checks that a bad run is refused naming what is allowed.
func TestRunErrors(t *testing.T) {
	g, _ := ResNet50(224)
	for _, r := range []Run{
		{GPU: "nope", GPUs: 8, Batch: 8, Split: Data},
		{GPU: "h100-sxm", GPUs: 9, Batch: 9, Split: Data},
		{GPU: "h100-sxm", GPUs: 8, Batch: 12, Split: Data},
		{GPU: "h100-sxm", GPUs: 8, Batch: 8, Split: "tensor"},
		{GPU: "h100-sxm", GPUs: 8, Batch: 8, Split: Model, Microbatches: 3},
	} {
		if _, err := Simulate(g, r); err == nil {
			t.Errorf("%+v: no error", r)
		}
	}
}
