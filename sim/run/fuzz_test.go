package run

import (
	"errors"
	"math"
	"os"
	"testing"

	"paraplay/sim/budget"
	"paraplay/sim/golden"
	"paraplay/sim/inference"
	"paraplay/sim/mgrit"
	"paraplay/sim/opgraph"
	"paraplay/sim/partitioned"
	"paraplay/sim/scenario"
	"paraplay/sim/splitlearn"
	"paraplay/sim/sppo"
	"paraplay/sim/swarm"
	"paraplay/sim/training"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// fuzzBudget keeps each fuzzed run small enough for thousands a second.
var fuzzBudget = budget.Limits{Who: "the fuzz target allows", Events: 30e3, Transfers: 3e3, Spans: 3e3,
	TraceBytes: 1e9, Memory: 64 << 20}

// bytesOf reads the fuzzer's bytes as choices, zero when they run out.
type bytesOf []byte

func (b *bytesOf) next() int {
	if len(*b) == 0 {
		return 0
	}
	v := (*b)[0]
	*b = (*b)[1:]
	return int(v)
}

// pick is one of vs, chosen by the next byte.
func pick[T any](b *bytesOf, vs ...T) T { return vs[b.next()%len(vs)] }

// FuzzSimulate runs small scenarios of every strategy built from the
// fuzzer's bytes: a testdata scenario with settings changed, boundary
// values among them (extreme efficiencies, the largest model shape, the
// smallest bandwidths, the longest ops). Each is refused with a field
// error, or it runs to completion under the budget, its timeline passes
// Validate and its counts stay within the strategy's bound; nothing
// panics.
func FuzzSimulate(f *testing.F) {
	var bases []scenario.Scenario
	for _, file := range golden.Files(f, "../scenario/testdata/*.yaml") {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		s, err := scenario.Parse(data)
		if err != nil {
			f.Fatal(err)
		}
		bases = append(bases, s)
	}
	for i := range bases {
		f.Add([]byte{byte(i)})
		f.Add([]byte{byte(i), 9, 3, 12, 1, 7, 200})
		f.Add([]byte{byte(i), 1, 21, 0, 0, 1, 0, 0, 0, 0})                 // a v5e 4x4 slice, torus
		f.Add([]byte{byte(i), 1, 21, 1, 2, 2, 1, 0, 1, 1})                 // two v5p 4x4x4 slices, without wraparound
		f.Add([]byte{byte(i), 1, 21, 0, 0, 2, 0, 0, 1, 0, 1, 0, 0})        // two v5e 4x4 slices: the hierarchical all-gather
		f.Add([]byte{byte(i), 1, 21, 1, 1, 2, 0, 0, 0, 0, 2, 0, 0})        // two v5p 2x2x4 slices: the hierarchical reduce-scatter
		f.Add([]byte{byte(i), 2, 21, 0, 0, 2, 0, 0, 1, 0, 0, 4, 0, 11, 2}) // two v5e 4x4 slices: FSDP over the DCN, analytic
		f.Add([]byte{byte(i), 2, 21, 1, 1, 2, 0, 0, 1, 0, 0, 4, 0, 11, 1}) // two v5p 2x2x4 slices: FSDP over the DCN, detailed
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := bytesOf(data)
		s := bases[b.next()%len(bases)]
		for range b.next() % 6 {
			mutate(&b, &s)
		}
		w, err := Work(s)
		if err != nil {
			return // invalid: Validate's errors are tested where they are made
		}
		if err := fuzzBudget.Check(w); err != nil {
			var fe *scenario.FieldError
			if !errors.As(err, &fe) || fe.Field == "" {
				t.Fatalf("refused without naming a field: %v", err)
			}
			return
		}
		tl, err := SimulateWithin(s, fuzzBudget)
		if err != nil {
			t.Fatalf("%s: a scenario within budget failed: %v", s.Describe(), err)
		}
		if err := tl.Validate(); err != nil {
			t.Fatalf("%s: %v", s.Describe(), err)
		}
		if e := tl.Summarize().Estimate; e != nil {
			for _, v := range []float64{e.Days, e.GPUHours, e.CostUSD, e.EnergyKWh, e.CO2Kg, e.PowerPerGPU} {
				if !(v >= 0) || math.IsInf(v, 0) {
					t.Fatalf("%s: cost estimate %+v is not finite and non-negative", s.Describe(), *e)
				}
			}
		}
		if n := float64(len(tl.Spans) + len(tl.States)); n > w.Spans.N {
			t.Errorf("%s: %g spans, bound %g", s.Describe(), n, w.Spans.N)
		}
		if n := float64(tl.Transfers.Len()); n > w.Transfers.N {
			t.Errorf("%s: %g transfers, bound %g", s.Describe(), n, w.Transfers.N)
		}
		if n := float64(tl.Events); n > w.Events.N {
			t.Errorf("%s: %g events, bound %g", s.Describe(), n, w.Events.N)
		}
	})
}

// mutate changes one setting of s, chosen by the bytes, often to a
// boundary value.
func mutate(b *bytesOf, s *scenario.Scenario) {
	k := b.next() % 27
	switch k {
	case 0:
		s.GPUs = pick(b, 2, 3, 8, 64)
	case 1:
		// Not one GPU: single-GPU training is issue 19's other work
		// (it failed with "a collective needs at least 2 GPUs").
		s.Cluster.Nodes, s.Cluster.GPUsPerNode = pick(b, 1, 2, 3), pick(b, 2, 8)
	case 2:
		s.Collective.Chunks = pick(b, 1, 2, 64)
		s.Collective.Algorithm = pick(b, "ring", "tree", "auto", "recursive_doubling", "halving_doubling", "hierarchical")
		s.Collective.Protocol = pick(b, "", "simple", "ll", "ll128", "auto", "LL", "x")
	case 3:
		s.Iterations = pick(b, 1, 2, 64)
		s.Recovery.Policy = pick(b, s.Recovery.Policy, "resihp", "elastic")
	case 4:
		s.Parallel.DP, s.Parallel.TP, s.Parallel.PP = pick(b, 1, 2, 4), pick(b, 1, 2, 8), pick(b, 1, 2, 4)
	case 5:
		s.Parallel.Microbatches = pick(b, 1, 3, 64, 4096)
		s.Parallel.MicroBatchSize = pick(b, 1, 4096)
	case 6:
		s.Parallel.Schedule = pick(b, "1f1b", "gpipe", "interleaved", "zb-h1", "dualpipev", "gpipe-2bp", "1f1b-2bp", "ready-first", "stp")
		s.Parallel.VirtualStages = pick(b, 1, 2)
		s.Parallel.ZeRO = pick(b, 0, 1, 3)
		s.Parallel.ZeROGroup = pick(b, 0, 1, 2, 3)
		s.Parallel.ZeROLayers = pick(b, 0, 0, 1, 2, -1, 1000)
		s.Parallel.GradReduce = pick(b, "", "overlap", "after_backward")
		s.Parallel.P2P = pick(b, "", "async", "blocking", "blocking_list")
		s.Parallel.Cyclic = pick(b, false, false, true)
	case 7:
		s.Training.Efficiency = pick(b, 0, 1e-300, 1e-9, 1)
	case 8:
		s.Model = scenario.Model{Layers: 1000, Hidden: 1 << 17, Heads: 4096, KVHeads: 4096, FFNHidden: 1 << 20, Vocab: 1 << 22, SeqLen: 1 << 22}
	case 9:
		s.Link.Bandwidth = pick(b, scenario.MinBandwidth, scenario.MaxBandwidth, 100*units.GBps)
		s.Link.Latency = pick(b, 0, scenario.MaxLatency)
	case 10:
		s.Compute.Forward = pick(b, 1, scenario.MaxCompute)
		s.Compute.Backward = pick(b, 1, scenario.MaxCompute)
		s.Compute.Jitter = pick(b, 0, 0.9)
	case 11:
		s.Fidelity = pick(b, "auto", "detailed", "analytic")
	case 12:
		s.Sync.Servers, s.Sync.Layers, s.Sync.Period = pick(b, 1, 2), pick(b, 1, 4), pick(b, 1, 3)
	case 13:
		splitlearn.Edit(s, func(y *splitlearn.Settings) {
			y.Clients, y.Hops, y.Uplink = pick(b, 1, 16), pick(b, 1, 3), pick(b, splitlearn.MinLinkRate, 20e6)
		})
	case 14:
		inference.Edit(s, func(y *inference.Settings) {
			y.Output, y.Requests, y.Prompt = pick(b, 1, 64), pick(b, 1, 4096), pick(b, 1, 1<<17)
		})
	case 15:
		s.Straggler.CV = pick(b, 0.0, 0.5)
		s.Seed = uint64(b.next())
	case 16:
		c := &s.Compression
		c.Ratio, c.Activations, c.Parameters = pick(b, 1, 0.25, 1e-9), pick(b, 1, 0.5, 1e-9), pick(b, 1, 0.5, 1e-9)
		c.Rank, c.Method = pick(b, 0, 1, 64, scenario.MaxRank), pick(b, scenario.CompressScaled, scenario.CompressSlimDP)
		c.TimePerMiB = pick(b, 0, units.Microsecond, scenario.MaxCompressCost)
	case 17:
		s.Data = scenario.Data{SeqDist: pick(b, "fixed", "uniform", "lognormal"), SeqCV: pick(b, 0.0, 1, 4),
			Assign: pick(b, "random", "balanced")}
	case 18:
		scenario.Put(s, partitioned.Name, partitioned.Settings{Parts: pick(b, 1, 2, 3, 4), PreSteps: pick(b, 1, 64), FullSteps: pick(b, 1, 2)})
		s.Strategy = pick(b, s.Strategy, partitioned.Name)
	case 19:
		scenario.Put(s, "parallel.sdp", training.SDP{Fraction: pick(b, 0, 0.25, 0.5, 1, 0.3, 2), Masking: pick(b, "backward", "forward", "x"),
			Level: pick(b, "block", "neuron"), Assignment: pick(b, "cyclic", "disjoint")})
	case 20:
		s.Training.Tokens = pick(b, 0, 1, 15e12, 1e18, 2e18)
		scenario.Put(s, "cost", training.Cost{GPUHour: pick(b, 0, 2.5, 1e4, -1), PUE: pick(b, 1, 1.3, 5, 0.5),
			GridKgPerKWh: pick(b, 0, 0.481, 2, 3)})
	case 21, 22, 23, 24, 25, 26:
		[...]func(*bytesOf, *scenario.Scenario){mutateTPU, mutateMoE, mutateSwarm, mutateSPPO, mutateMGRIT, mutateGraph}[k-21](b, s)
	}
}

// mutateSPPO changes the sppo section, often to a boundary value.
func mutateSPPO(b *bytesOf, s *scenario.Scenario) {
	sppo.Edit(s, func(y *sppo.Settings) {
		y.Tokens, y.Chunks = pick(b, 0, 1, 7, 4096, sppo.MaxTokens, sppo.MaxTokens+1), pick(b, 0, 1, 3, 256, 257)
		y.Offload, y.PCIe = pick(b, 0, 0.5, 1, -1, 2), pick(b, "pcie3", "pcie5", "nvlink4", "")
		y.HostMemory = pick(b, 0, units.GiB, 16*1024*units.GiB+1)
	})
}

// mutateMGRIT changes the mgrit section, often to a boundary value.
func mutateMGRIT(b *bytesOf, s *scenario.Scenario) {
	mgrit.Edit(s, func(y *mgrit.Settings) {
		y.Layers, y.Coarsen = pick(b, 0, 2, 64, 4096, 4097), pick(b, 0, 1, 2, 4, 64, 65)
		y.Iterations, y.Relax = pick(b, 0, 1, 20, 21), pick(b, "fcf", "f", "x")
		y.State = pick(b, 0, 1, units.GiB, units.GiB+1)
	})
}

// mutateSwarm changes the swarm section, often to a boundary value.
func mutateSwarm(b *bytesOf, s *scenario.Scenario) {
	swarm.Edit(s, func(y *swarm.Settings) {
		y.Stages, y.Skip = pick(b, 0, 2, 3, 16, 17), pick(b, 0, 1, 2, 15, -1)
		y.Rebalance = pick(b, 0, units.Microsecond, units.Millisecond, 5*units.Second, 3601*units.Second)
		y.Microbatches, y.StageBytes = pick(b, 1, 7, 4096, 4097), pick(b, 0, units.GiB, 101*units.GiB)
	})
}

// mutateGraph changes the operator graph's section (opgraph), often to a
// boundary value.
func mutateGraph(b *bytesOf, s *scenario.Scenario) {
	opgraph.Edit(s, func(y *opgraph.Settings) {
		y.Model, y.Split = pick(b, "resnet50", "seq2seq-lstm", "vgg", "vgg16", "inception3a"), pick(b, "data", "model", "hybrid", "tensor")
		y.Search, y.SearchSteps = pick(b, "", "flexflow", "dlplacer", "x"), pick(b, 0, 1, 50, 100000, 100001)
		y.Batch, y.Microbatches = pick(b, 0, 1, 7, 256, 65536, 65537), pick(b, 0, 1, 3, 8, 256)
		y.StageReplicas = pick(b, "", "1,1,1,5", "8", "0,8", "1,1,1,1,1,1,1,1,1", "x", "1*8")
		y.Image, y.Words = pick(b, 0, 32, 100, 224, 1024, 1056), pick(b, 0, 1, 30, 200, 201)
	})
}

// mutateTPU puts s on a TPU slice: its shape, slices and wraparound, the
// torus collective's algorithm, axes and op, and a training mesh and its
// layout on the torus.
func mutateTPU(b *bytesOf, s *scenario.Scenario) {
	c := &s.Cluster
	c.GPU, c.Topology = pick(b, "tpu-v5e", "tpu-v5p", "tpu-v4", "h100-sxm"), pick(b, "4x4", "2x2x4", "4x4x4", "16", "8x2", "3x0")
	c.Nodes, c.GPUsPerNode, c.NodeGPUs, c.Intra, c.Inter, c.Network = 0, 0, nil, "", "", ""
	c.Slices, c.Wraparound, c.Twisted = pick(b, 0, 1, 2), pick(b, "", "none", "x"), pick(b, false, true)
	s.GPUs = scenario.Default().GPUs // as a parsed slice scenario has it (0 is refused: gpus)
	s.Collective.Algorithm, s.Collective.Axes = pick(b, "torus", "auto", "ring"), pick(b, "", "x", "xy", "z", "q", "xx")
	s.Collective.Op = pick(b, s.Collective.Op, "all_gather", "reduce_scatter", "all_reduce", "broadcast")
	m := pick(b, scenario.Mesh{}, scenario.Mesh{Data: 4, Model: 4}, scenario.Mesh{FSDP: 8, Model: 2}, scenario.Mesh{Data: 2, Seq: 2, Model: 4},
		scenario.Mesh{Data: 2, FSDP: 8, Seq: 2}) // the last fills two slices of 16: FSDP over the DCN
	m.Layout = pick(b, "", "zyx", "yx", "z", "xx", "w")
	if p := &s.Parallel; m.Set() || m.Layout != "" {
		p.Mesh, p.DP, p.TP, p.CP, p.PP = m, max(m.Data, 1)*max(m.FSDP, 1), max(m.Model, 1), max(m.Seq, 1), 1
		if m.FSDP > 1 {
			p.ZeRO = 3
		}
	}
}

// mutateMoE changes a mixture of experts' keys: the routing, the
// experts' shape, ep and etp, MLA and multi-token prediction, the
// all-to-all's kind and the dispatch's precision, the two-microbatch
// overlap and the fat tree's oversubscription.
func mutateMoE(b *bytesOf, s *scenario.Scenario) {
	x := &s.Model.MoE
	x.Routing.Skew, x.Routing.CV, x.Routing.S = pick(b, "", "lognormal", "zipf", "x"), pick(b, 0, 0.5, 10, -1), pick(b, 0, 1.2, 11)
	x.Routing.CapacityFactor, x.Routing.Redundant, x.Routing.HotExperts = pick(b, 0, 0.01, 1.25, 1001), pick(b, 0, 2, 4, 8), pick(b, 0, 1, 9)
	x.Routing.Histogram = pick(b, nil, []float64{4, 1, 1, 1, 1, 1, 1, 1}, []float64{0, 0})
	x.Experts, x.TopK, x.SharedExperts, x.DenseLayers = pick(b, 0, 2, 16), pick(b, 0, 1, 3), pick(b, 0, 1), pick(b, 0, 1, 2)
	x.Router, x.Groups, x.TopGroups = pick(b, "", "topk", "group-limited"), pick(b, 0, 2, 3), pick(b, 0, 1, 2)
	s.Parallel.EP, s.Parallel.ETP, s.Model.MTP = pick(b, 1, 2, 4, 8, 32), pick(b, 0, 1, 2, 3), pick(b, 0, 1)
	s.Model.MLA = pick(b, s.Model.MLA, workload.MLA{KVLoRARank: 64, QLoRARank: 0, RopeHeadDim: 16, NopeHeadDim: 32, VHeadDim: 32})
	s.Model.Attention = pick(b, s.Model.Attention, "mla", "eager")
	x.AllToAll, x.DispatchPrecision = pick(b, "", "flat", "hierarchical", "ring"), pick(b, "", "bf16", "fp8", "fp4")
	x.Overlap, s.Parallel.MicroBatchSize = pick(b, "", "none", "two-microbatch", "three"), pick(b, s.Parallel.MicroBatchSize, 1, 2, 3)
	s.Cluster.Network, s.Cluster.Oversubscription = pick(b, s.Cluster.Network, "fat-tree", "rail-optimized"), pick(b, 0, 1, 4, 0.5, 65)
}
