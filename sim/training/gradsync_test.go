package training

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/gemm"
	"paraplay/sim/hw"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// bigDP is pure data parallelism over one node's 4 GPUs, with gradients
// large enough for the full eight DDP buckets (about 2 GB), priced by
// FLOPs so that the closed forms can count them.
func bigDP() scenario.Scenario {
	s := smallDP("analytic")
	s.Model = scenario.Model{Layers: 4, Hidden: 4096, Heads: 32, Vocab: 32000, SeqLen: 2048}
	return s
}

// TestGradReduceAfterBackward: with Megatron's local DDP the gradients are
// summed once the whole backward is done, so data parallelism pays its
// full all-reduce, T = C + AR + O exactly (C the m microbatches' compute,
// AR the α–β ring of the 16-bit gradients, O the optimizer step), where
// PyTorch DDP's buckets hide all but the last one's share under the
// backward.
func TestGradReduceAfterBackward(t *testing.T) {
	s := bigDP()
	m, _ := s.Model.Resolve()
	gpu, _ := hw.LookupGPU("h100-sxm")
	f := workload.StageFLOPs(m, m.Layers, true, true, 1, 1, 1, workload.RecomputeNone)
	C := 2 * (workload.OpTime(f.Forward, gpu, 0) + workload.OpTime(f.BackwardInput+f.Recompute, gpu, 0) + workload.OpTime(f.BackwardWeight, gpu, 0))
	psi := workload.StageParams(m, m.Layers, true, true, 1, 1)
	O := optimizerClosedForm(t, gpu, psi, bf16StepBytes)
	topology, err := nccltest.Topology(s)
	if err != nil {
		t.Fatal(err)
	}
	alpha, bw, err := topo.NewPaths(topology).Bottleneck([]int{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	ar, err := collective.Time("all_reduce", "ring", collective.Config{Ranks: 4, Bytes: units.Bytes(2 * psi)}, alpha, bw)
	if err != nil {
		t.Fatal(err)
	}
	want := C + units.Round(ar) + O
	s.Parallel.GradReduce = GradReduceAfterBackward
	after := mustSimulate(t, s).End
	if relErr(after, want) > 1e-6 {
		t.Errorf("after_backward: T = %v, want C + AR + O = %v + %v + %v = %v", after, C, units.Round(ar), O, want)
	}
	s.Parallel.GradReduce = GradReduceOverlap
	overlap := mustSimulate(t, s).End
	// Eight buckets: all but the last bucket's all-reduce hide under the
	// last backward, which is longer than them.
	t.Logf("C %v AR %v O %v: after_backward %v, overlap %v", C, units.Round(ar), O, after, overlap)
	if hidden := want - overlap; !(hidden > 0) || relErr(hidden, units.Round(ar*7/8)) > 0.01 {
		t.Errorf("overlap: T = %v, hides %v of the all-reduce, want 7/8 of AR = %v", overlap, hidden, units.Round(ar*7/8))
	}
}

// TestP2PBlocking: with Megatron's point-to-point exchange the
// sender's next op waits until its message has landed on the next stage
// and been all-gathered over the receiver's tensor-parallel group, so in
// GPipe stage 0's second forward starts exactly α + S/B + AG after its
// first ends (S = b·s·h·2/t bytes per rank over the network, AG the ring
// all-gather of t·S over NVLink); without it, at once. With the 2021
// list-based gather (blocking_list) the gathered t·S bytes are copied once
// more, 2·t·S/B_HBM plus t launches later.
func TestP2PBlocking(t *testing.T) {
	s := scenario.Default()
	s.Strategy, s.Fidelity = Name, "analytic"
	s.Model = scenario.Model{Preset: "llama3-8b", Layers: 4}
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 2, GPUsPerNode: 2}
	s.Parallel.TP, s.Parallel.PP, s.Parallel.Microbatches, s.Parallel.Schedule = 2, 2, 2, "gpipe"
	m, _ := s.Model.Resolve()
	topology, err := nccltest.Topology(s)
	if err != nil {
		t.Fatal(err)
	}
	paths := topo.NewPaths(topology)
	a, bw, err := paths.Cost(0, 2) // stage 0's first rank to stage 1's
	if err != nil {
		t.Fatal(err)
	}
	slice := units.Bytes(float64(m.SeqLen) * float64(m.Hidden) * 2 / 2)
	aTP, bwTP, err := paths.Bottleneck([]int{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	gather := units.Round(collective.RingTime(2, 2*slice, aTP, bwTP) / 2)
	want := a + bw.TransferTime(slice) + gather
	// blocking_list copies the gathered 2·S bytes once more: read and
	// written at the streaming HBM bandwidth, one launch per tp rank.
	gpu, _ := hw.LookupGPU("h100-sxm")
	params, err := gemm.Lookup("h100-sxm")
	if err != nil {
		t.Fatal(err)
	}
	gm, err := gemm.For(gpu)
	if err != nil {
		t.Fatal(err)
	}
	listCopy := units.Round(2*float64(2*slice)/(float64(gpu.HBMBandwidth)*params.HBMEfficiency) + 2*gm.Launch())
	for _, mode := range []string{P2PAsync, P2PBlocking, P2PBlockingList} {
		s.Parallel.P2P = mode
		tl := mustSimulate(t, s)
		var end0, start1 units.Time = 0, units.Time(math.MaxInt64)
		for _, sp := range tl.Spans {
			if sp.GPU != 0 || sp.Stage != 0 {
				continue
			}
			if sp.Microbatch == 0 && sp.Start < tl.End/2 {
				end0 = max(end0, sp.End)
			}
			if sp.Microbatch == 1 && sp.Kind == "forward" {
				start1 = min(start1, sp.Start)
			}
		}
		gap := start1 - end0
		t.Logf("%s: gap %v (closed form %v)", mode, gap, want)
		if mode == P2PAsync && gap != 0 {
			t.Errorf("async: stage 0 waits %v between its forwards, want 0", gap)
		}
		if mode == P2PBlocking && relErr(gap, want) > 1e-6 {
			t.Errorf("blocking: stage 0 waits %v between its forwards, want α + S/B + AG = %v + %v + %v = %v", gap, a, bw.TransferTime(slice), gather, want)
		}
		if mode == P2PBlockingList && relErr(gap, want+listCopy) > 1e-6 {
			t.Errorf("blocking_list: stage 0 waits %v between its forwards, want α + S/B + AG + copy = %v + %v = %v", gap, want, listCopy, want+listCopy)
		}
	}
}

// TestGradReduceAndP2PKeys: the YAML keys reach the plan, and an unknown
// value is an error naming the key and the allowed values.
func TestGradReduceAndP2PKeys(t *testing.T) {
	const head = "model: {preset: llama3-8b, layers: 4}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 2}\n"
	s, err := scenario.Parse([]byte(head + "parallel: {dp: 2, pp: 2, microbatches: 2, grad_reduce: after_backward, p2p: blocking}\n"))
	if err != nil || s.Parallel.GradReduce != GradReduceAfterBackward || s.Parallel.P2P != P2PBlocking {
		t.Fatalf("parsed grad_reduce %q, p2p %q, error %v; want after_backward, blocking", s.Parallel.GradReduce, s.Parallel.P2P, err)
	}
	for _, c := range []struct{ set, key, allowed string }{
		{"grad_reduce: later", "parallel.grad_reduce", "overlap, after_backward"},
		{"p2p: sync", "parallel.p2p", "async, blocking, blocking_list"},
	} {
		_, err := scenario.Parse([]byte(head + "parallel: {dp: 2, pp: 2, microbatches: 2, " + c.set + "}\n"))
		if err == nil || !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), c.allowed) {
			t.Errorf("%s: error %v; want it to name %s and allow %s", c.set, err, c.key, c.allowed)
		}
	}
}
