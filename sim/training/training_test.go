package training

import (
	"bytes"
	"math"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

func BenchmarkTraining405BOn16384(b *testing.B) {
	s := strategytest.Load(b, "../run/testdata/scale/llama3-405b-16k.yaml")
	for b.Loop() {
		if _, err := simulate(s); err != nil {
			b.Fatal(err)
		}
	}
}

// synthetic is a pipeline lesson: p GPUs, ideal network, fixed op times.
func synthetic(schedule string, p, m, v int, tf, tb, tw units.Time) scenario.Scenario {
	s := scenario.Default()
	s.Strategy, s.GPUs = Name, p
	s.Cluster.Network = "ideal"
	s.Model.Synthetic = scenario.Synthetic{Forward: tf, BackwardInput: tb, BackwardWeight: tw}
	s.Parallel.PP, s.Parallel.Microbatches, s.Parallel.Schedule, s.Parallel.VirtualStages = p, m, schedule, v
	return s
}

// TestPipelineClosedForms runs the whole simulator (not the pipeline
// package's own executor) on synthetic models with free communication and
// checks iteration time and stage 0's peak in-flight microbatches against
// the schedules' closed forms, exactly: (m + p − 1)(t_F + t_B + t_W) for
// GPipe and 1F1B (Huang et al. 2019; Narayanan et al. 2021), the bubble
// divided by v for interleaving (Narayanan et al. 2021), and the zero-bubble
// schedules' shorter bubbles (Qi et al. 2024).
func TestPipelineClosedForms(t *testing.T) {
	ms := units.Millisecond
	tf, tb, tw := 3*ms, 4*ms, 2*ms // per device stage; divisible by v = 2, 4
	for _, p := range []int{2, 4, 8, 16} {
		for _, m := range []int{p, 2 * p, 4 * p} {
			if m > 64 {
				continue
			}
			P, M := units.Time(p), units.Time(m)
			cases := []struct {
				name       string
				v          int
				end        units.Time
				peakStage0 float64
			}{
				{"gpipe", 1, (M + P - 1) * (tf + tb + tw), float64(m)},
				{"1f1b", 1, (M + P - 1) * (tf + tb + tw), float64(min(p, m))},
				{"interleaved", 2, M*(tf+tb+tw) + (P-1)*(tf+tb+tw)/2, 0},
				{"interleaved", 4, M*(tf+tb+tw) + (P-1)*(tf+tb+tw)/4, 0},
				{"zb-h1", 1, M*(tf+tb+tw) + (P-1)*(tf+tb-tw), float64(p)},
				// Local losses: device d starts at d·T_F and never waits.
				{"local-loss", 1, M*(tf+tb+tw) + (P-1)*tf, 1},
			}
			if m >= 2*p {
				cases = append(cases, struct {
					name       string
					v          int
					end        units.Time
					peakStage0 float64
				}{"zb-h2", 1, M*(tf+tb+tw) + (P-1)*(tf+tb-2*tw), float64(2*p - 1)})
			}
			for _, tc := range cases {
				s := synthetic(tc.name, p, m, tc.v, tf, tb, tw)
				tl, err := simulate(s)
				if err != nil {
					t.Fatalf("%s p=%d m=%d v=%d: %v", tc.name, p, m, tc.v, err)
				}
				if tc.name == "zb-h2" {
					// ZB-H2's devices start and end at different times: its
					// bubble is what back-to-back iterations pay, so compare
					// the busiest device's window, as Qi et al. 2024 do.
					got := windowOf(tl, 0)
					if got != tc.end {
						t.Errorf("%s p=%d m=%d: device 0 window %v, closed form %v", tc.name, p, m, got, tc.end)
					}
				} else if tl.End != tc.end {
					t.Errorf("%s p=%d m=%d v=%d: iteration %v, closed form %v", tc.name, p, m, tc.v, tl.End, tc.end)
				}
				want := tc.peakStage0
				if tc.name == "interleaved" {
					// p(1 + (p−1)/(p·v)) stage-equivalents (m a multiple of p, m > p).
					want = float64(p) * (1 + float64(p-1)/float64(p*tc.v))
					if m == p {
						want = float64(m)
					}
				}
				if got := tl.Memory[0].PeakInFlight; math.Abs(got-want) > 1e-9 {
					t.Errorf("%s p=%d m=%d v=%d: stage 0 peak in flight %.3f, want %.3f", tc.name, p, m, tc.v, got, want)
				}
			}
		}
	}
}

// windowOf is GPU g's span from its first op to its last.
func windowOf(tl *timeline.Timeline, g int) units.Time {
	var first, last units.Time = -1, 0
	for _, sp := range tl.Spans {
		if sp.GPU == g {
			if first < 0 || sp.Start < first {
				first = sp.Start
			}
			last = max(last, sp.End)
		}
	}
	return last - first
}

func TestTrainingRunsValidateAndRepeat(t *testing.T) {
	for _, file := range []string{"../scenario/testdata/llama3-8b-2x8.yaml", "../scenario/testdata/pipeline-1f1b.yaml"} {
		s := strategytest.Load(t, file)
		a, err := simulate(s)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if err := a.Validate(); err != nil {
			t.Errorf("%s: %v", file, err)
		}
		b, _ := simulate(s)
		var ta, tb bytes.Buffer
		a.WriteChromeTrace(&ta)
		b.WriteChromeTrace(&tb)
		if !bytes.Equal(ta.Bytes(), tb.Bytes()) {
			t.Errorf("%s: two runs differ", file)
		}
	}
}

// TestZeROMemoryInTheRun: the simulator's model-state memory per GPU is
// ZeRO's formula on the GPU's parameter shard, plus ZeRO-3's buffers.
func TestZeROMemoryInTheRun(t *testing.T) {
	s := strategytest.Load(t, "../scenario/testdata/llama3-8b-2x8.yaml")
	for zero := 0; zero <= 3; zero++ {
		s.Parallel.ZeRO = zero
		tl, err := simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := s.Model.Resolve()
		p := s.Parallel
		// GPU 0 is on pipeline stage 0 (embedding, first half of the layers).
		psi := workload.StageParams(m, m.Layers/p.PP, true, false, p.TP, p.EP)
		dp := float64(p.DP)
		want := map[int]float64{0: 16 * psi, 1: 4*psi + 12*psi/dp, 2: 2*psi + 14*psi/dp, 3: 16 * psi / dp}[zero]
		mem := tl.Memory[0]
		got := float64(mem.Parameters + mem.Gradients + mem.OptimizerStates)
		if math.Abs(got-want) > 8 {
			t.Errorf("ZeRO-%d: model states %.0f bytes, formula %.0f", zero, got, want)
		}
		// ZeRO-3 also holds two gathered units in bf16 (FSDP: the one in
		// use and the prefetched next); on stage 0 the larger of a layer
		// and the embedding, which Params gives apart.
		var buf float64
		if zero == 3 {
			layer := workload.StageParams(m, 1, false, false, p.TP, p.EP)
			buf = 2 * 2 * max(layer, float64(workload.Params(m).Embedding)/float64(p.TP))
		}
		if math.Abs(float64(mem.Buffers)-buf) > 1 {
			t.Errorf("ZeRO-%d: gathered-parameter buffers %v bytes, want %.0f", zero, mem.Buffers, buf)
		}
	}
}

// TestVShapedSchedulesWithinTheirBound: ZB-V and DualPipeV through the
// whole simulator keep their bubble (the largest idle time of a device
// between its first and last op) within DeepSeek's (PP/2−1)(F&B + B − 3W)
// bound, PP = 2p chunk stages, with per-chunk times.
func TestVShapedSchedulesWithinTheirBound(t *testing.T) {
	ms := units.Millisecond
	tf, tb, tw := 2*ms, 2*ms, 2*ms
	for _, name := range []string{"zb-v", "dualpipev"} {
		for _, p := range []int{2, 4, 8} {
			m := 2 * p
			tl, err := simulate(synthetic(name, p, m, 1, tf, tb, tw))
			if err != nil {
				t.Fatalf("%s p=%d: %v", name, p, err)
			}
			f, b, w := tf/2, tb/2, tw/2 // two chunks per device
			bound := units.Time(p-1) * ((f + b + w) + (b + w) - 3*w)
			if got := maxIdle(tl); got > bound {
				t.Errorf("%s p=%d m=%d: bubble %v, above the bound %v", name, p, m, got, bound)
			} else if name == "zb-v" && got != 0 {
				t.Errorf("zb-v p=%d m=%d: bubble %v with equal op times, want 0 (Qi et al. 2024)", p, m, got)
			}
		}
	}
}

// maxIdle is the largest idle time of a GPU between its first and last span.
func maxIdle(tl *timeline.Timeline) units.Time {
	var worst units.Time
	for g := range tl.GPUs {
		var busy units.Time
		for _, sp := range tl.Spans {
			if sp.GPU == g {
				busy += sp.End - sp.Start
			}
		}
		worst = max(worst, windowOf(tl, g)-busy)
	}
	return worst
}

// TestTensorParallelAcrossNodesPaysTheNetwork: the same tp = 8 plan on one
// node of 8 and on two nodes of 4 must differ: a TP ring that crosses
// InfiniBand is priced on its slowest hop, not on the NVLink between its
// first two ranks.
func TestTensorParallelAcrossNodesPaysTheNetwork(t *testing.T) {
	s := strategytest.Load(t, "../scenario/testdata/llama3-8b-2x8.yaml")
	s.Parallel.DP, s.Parallel.TP, s.Parallel.PP = 1, 8, 1
	s.Cluster.Nodes, s.Cluster.GPUsPerNode = 1, 8
	one, err := simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	s.Cluster.Nodes, s.Cluster.GPUsPerNode = 2, 4
	two, err := simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	a, b := one.Summarize().ExposedBy["tp"], two.Summarize().ExposedBy["tp"]
	if !(b > 4*a) {
		t.Errorf("exposed tp communication: %g s on one node, %g s across two; want the second > 4× the first", a, b)
	}
}

func BenchmarkSummarize405B(b *testing.B) {
	tl, err := simulate(strategytest.Load(b, "../run/testdata/scale/llama3-405b-16k.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		tl.Summarize()
	}
}
