package training

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// smallDP is pure data parallelism of a small model (13 MB of bf16
// gradients: one DDP bucket, so the all-reduce starts after the last
// backward and overlaps nothing) on one node of four H100s.
func smallDP(fidelity string) scenario.Scenario {
	s := scenario.Default()
	s.Strategy, s.Fidelity = Name, fidelity
	s.Model = scenario.Model{Layers: 2, Hidden: 512, Heads: 8, Vocab: 1000, SeqLen: 512}
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 1, GPUsPerNode: 4}
	s.Parallel.DP, s.Parallel.Microbatches = 4, 2
	// The closed forms count FLOPs at the preset's fraction of peak.
	s.Training.Efficiency = 0.5
	return s
}

func mustSimulate(t *testing.T, s scenario.Scenario) *timeline.Timeline {
	t.Helper()
	return strategytest.MustRun(t, Simulate, s)
}

// simulate validates s, as run.Simulate does, and runs it.
func simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	return strategytest.Run(Simulate, s)
}

// TestFailSlowStretchesDataParallel checks the closed form of a fail-slow
// GPU in pure data parallelism: every GPU computes C (m microbatches of
// forward and backward), all-reduces the gradients (AR, α–β ring time)
// and steps the optimizer (O, bf16StepBytes of HBM traffic per parameter at the streaming fraction of HBM), so
// T = C + AR + O healthy. A GPU keeping factor f of its speed computes
// C/f and O/f; the others wait for it in the all-reduce, whose time does
// not change: T_f = C/f + AR + O/f.
func TestFailSlowStretchesDataParallel(t *testing.T) {
	for _, fid := range []string{"analytic", "detailed"} {
		s := smallDP(fid)
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
		AR := units.Round(ar)
		healthy := mustSimulate(t, s).End
		// Detailed chunks pay a little more than the closed form (message
		// rounding); analytic is the closed form.
		tol := 0.0
		if fid == "detailed" {
			tol = 0.01
		}
		if want := C + AR + O; relErr(healthy, want) > tol {
			t.Errorf("%s healthy: T = %v, want C + AR + O = %v + %v + %v = %v", fid, healthy, C, AR, O, want)
		}
		for _, factor := range []float64{0.8, 0.5, 0.25} {
			s.Faults = []scenario.Fault{{Kind: scenario.FailSlow, GPU: 2, Factor: factor}}
			got := mustSimulate(t, s).End
			stretch := units.Round((float64(C+O)/factor - float64(C+O)) * 1e-9)
			if want := healthy + stretch; relErr(got, want) > 1e-6 {
				t.Errorf("%s, factor %v: T = %v, want T_healthy + (C+O)(1/f−1) = %v + %v = %v", fid, factor, got, healthy, stretch, want)
			}
			t.Logf("%s f=%v: T=%v, closed form %v (healthy %v)", fid, factor, got, healthy+stretch, healthy)
		}
	}
}

func relErr(got, want units.Time) float64 {
	return math.Abs(float64(got-want)) / float64(want)
}

// twoSpeed is a two-stage pipeline on an H100 node and an A100 node with
// free communication: stage times differ by the GPUs' speed.
func twoSpeed(partition string) scenario.Scenario {
	s := scenario.Default()
	s.Strategy, s.Fidelity = Name, "analytic"
	s.Model = scenario.Model{Preset: "llama3-8b", Layers: 16}
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 2, GPUsPerNode: 1, Network: "ideal", NodeGPUs: []string{"h100-sxm", "a100-sxm-80gb"}}
	s.Parallel.PP, s.Parallel.Microbatches, s.Parallel.Schedule, s.Parallel.Partition = 2, 8, "gpipe", partition
	s.Training.Efficiency = 0.5 // the closed forms count FLOPs at the presets' fraction of peak
	return s
}

// gpipeTime is GPipe's iteration time with stage k taking f_k forward
// and b_k backward per microbatch and free messages: the forward phase
// is Σf + (m−1)·max f, the backward phase Σb + (m−1)·max b, then stage
// 0's optimizer step o_0 ends the iteration (it is the last to finish
// its backward).
func gpipeTime(f, b []units.Time, m int, o0 units.Time) units.Time {
	var sf, sb, mf, mb units.Time
	for k := range f {
		sf, sb, mf, mb = sf+f[k], sb+b[k], max(mf, f[k]), max(mb, b[k])
	}
	M := units.Time(m - 1)
	return sf + M*mf + sb + M*mb + o0
}

// stageTimes works out, from the FLOP formulas, each stage's forward and
// backward per microbatch on its GPU, for the given layer split.
func stageTimes(t *testing.T, layers []int, gpus []string) (f, b []units.Time, o0 units.Time) {
	m, _ := workload.LookupModel("llama3-8b")
	m.Layers = 16
	for k, l := range layers {
		g, _ := hw.LookupGPU(gpus[k])
		ref, _ := hw.LookupGPU("h100-sxm")
		fl := workload.StageFLOPs(m, l, k == 0, k == len(layers)-1, 1, 1, 1, workload.RecomputeNone)
		mult := ref.PeakFLOPS * ref.Efficiency / (g.PeakFLOPS * g.Efficiency)
		scale := func(d units.Time) units.Time { return units.Round(float64(d) * mult * 1e-9) }
		f = append(f, scale(workload.OpTime(fl.Forward, ref, 0)))
		b = append(b, scale(workload.OpTime(fl.BackwardInput, ref, 0)+workload.OpTime(fl.BackwardWeight, ref, 0)))
		if k == 0 {
			psi := workload.StageParams(m, l, true, false, 1, 1)
			o0 = units.Round(float64(optimizerClosedForm(t, ref, psi, bf16StepBytes)) * mult * 1e-9)
		}
	}
	return f, b, o0
}

// TestBalancedPartitionGain: on an H100 + A100 pipeline, equal
// partitioning gives each stage 8 layers and the A100 stage is the
// bottleneck; balanced partitioning moves layers to the H100. The gain
// the simulator shows is the gain the stage times predict through
// GPipe's closed form.
func TestBalancedPartitionGain(t *testing.T) {
	gpus := []string{"h100-sxm", "a100-sxm-80gb"}
	eq, bal := mustSimulate(t, twoSpeed("equal")), mustSimulate(t, twoSpeed("balanced"))
	best, bestT := 0, units.Time(math.MaxInt64)
	for l0 := 1; l0 < 16; l0++ {
		f, b, o := stageTimes(t, []int{l0, 16 - l0}, gpus)
		if tt := gpipeTime(f, b, 8, o); tt < bestT {
			best, bestT = l0, tt
		}
	}
	f, b, o := stageTimes(t, []int{8, 8}, gpus)
	eqPred := gpipeTime(f, b, 8, o)
	if relErr(eq.End, eqPred) > 1e-6 {
		t.Errorf("equal split: T = %v, closed form %v", eq.End, eqPred)
	}
	if relErr(bal.End, bestT) > 1e-6 {
		t.Errorf("balanced split: T = %v, closed form of the best split (%d + %d layers) %v", bal.End, best, 16-best, bestT)
	}
	gain, predGain := eq.End-bal.End, eqPred-bestT
	if gain <= 0 || relErr(gain, predGain) > 1e-3 {
		t.Errorf("gain %v, predicted %v", gain, predGain)
	}
	t.Logf("equal %v, balanced %v (%d+%d layers): gain %v = %.1f%%, predicted %v", eq.End, bal.End, best, 16-best, gain,
		100*float64(gain)/float64(eq.End), predGain)
}

// TestStragglerJitterCV: every compute span of a straggler run is its
// nominal time times a lognormal draw; the draws' mean is 1 and their
// coefficient of variation the scenario's, within 10% of it for this
// seed and 2,048 draws (the sample cv's standard error is about
// cv/√(2n), 1.6% of cv here).
func TestStragglerJitterCV(t *testing.T) {
	s := synthetic("gpipe", 1, 64, 1, 3*units.Millisecond, 4*units.Millisecond, 0)
	s.GPUs, s.Parallel.DP, s.Parallel.PP = 8, 8, 1
	s.Iterations = 2
	s.Straggler.CV = 0.1
	tl := mustSimulate(t, s)
	var n, sum, sum2 float64
	for _, sp := range tl.Spans {
		nominal := 3 * units.Millisecond
		if sp.Kind == timeline.Backward {
			nominal = 4 * units.Millisecond
		}
		x := float64(sp.End-sp.Start) / float64(nominal)
		n, sum, sum2 = n+1, sum+x, sum2+x*x
	}
	mean := sum / n
	cv := math.Sqrt(sum2/n-mean*mean) / mean
	t.Logf("%v draws: mean %.4f, cv %.4f (want 0.1)", n, mean, cv)
	if n != 2048 || math.Abs(mean-1) > 0.01 || math.Abs(cv-0.1) > 0.01 {
		t.Errorf("%v draws: mean %v, cv %v; want 2048 draws, mean 1 ± 0.01, cv 0.1 ± 0.01", n, mean, cv)
	}
}

// TestJitterSourceMoments draws the factor 100,000 times: the lognormal's
// mean is 1 and its cv the one asked for, to 1%.
func TestJitterSourceMoments(t *testing.T) {
	for _, want := range []float64{0.05, 0.1, 0.3} {
		j := jitterSource{seed: 7}
		j.mu, j.sigma = scenario.StragglerSigma(want)
		var n, sum, sum2 float64
		for i := range 100_000 {
			x := j.factor(i/1000, i%1000, i%7)
			n, sum, sum2 = n+1, sum+x, sum2+x*x
		}
		mean := sum / n
		cv := math.Sqrt(sum2/n-mean*mean) / mean
		if math.Abs(mean-1) > 0.01*want+1e-3 || math.Abs(cv-want) > 0.01*want+0.002 {
			t.Errorf("cv %v: mean %v, cv %v", want, mean, cv)
		}
	}
}

// varlen is data parallelism over four replicas with lognormal sequence
// lengths and light straggling: batches differ in cost from step to step.
func varlen() scenario.Scenario {
	s := smallDP("analytic")
	s.Model.SeqLen = 2048
	s.Parallel.Microbatches = 4
	s.Iterations = 8
	s.Data = scenario.Data{SeqDist: "lognormal", SeqCV: 1}
	s.Straggler.CV = 0.05
	return s
}

// TestPredictorIgnoresLongBatches: with variable-length batches some
// iteration takes more than 1.2× the median of those before it, and the
// naive detector fires; the workload-aware predictor, which prices the
// batch it is given, does not: it fires only when a GPU computes more than
// 1.1× the time predicted for its share of that batch. A fail-slow GPU 1
// from the fifth iteration on makes it fire there and after, on GPU 1,
// even in iterations where a replica with longer sequences hides the
// slow GPU from the iteration time.
func TestPredictorIgnoresLongBatches(t *testing.T) {
	tl := mustSimulate(t, varlen())
	naive := 0
	for _, it := range tl.Iterations {
		t.Logf("iteration %d: observed %v, predicted %v, median %v, naive %v, predictor %v (GPU %d), imbalance %.2f",
			it.Index, it.Observed(), it.Predicted, it.Median, it.NaiveFlag, it.PredictorFlag, it.SlowGPU, it.Imbalance)
		if it.NaiveFlag {
			naive++
		}
		if it.PredictorFlag {
			t.Errorf("iteration %d: the predictor flags a healthy run (observed %v, predicted %v)", it.Index, it.Observed(), it.Predicted)
		}
	}
	if naive == 0 {
		t.Errorf("the naive detector never fires; the test's batches do not vary enough")
	}
	s := varlen()
	s.Faults = []scenario.Fault{{Kind: scenario.FailSlow, GPU: 1, Factor: 0.5, At: tl.Iterations[4].Start}}
	slow := mustSimulate(t, s)
	for _, it := range slow.Iterations {
		if want := it.Index >= 4; it.PredictorFlag != want || (want && it.SlowGPU != 1) {
			t.Errorf("fail-slow of GPU 1 from iteration 4: iteration %d predictor flag %v on GPU %d, want %v (observed %v, predicted %v)",
				it.Index, it.PredictorFlag, it.SlowGPU, want, it.Observed(), it.Predicted)
		}
	}
}

// restartRun has identical iterations (no jitter, fixed lengths), a
// checkpoint after every iteration and one fail-stop.
func restartRun(policy string, fail bool) scenario.Scenario {
	s := smallDP("analytic")
	s.Iterations = 4
	s.Recovery = scenario.Recovery{Policy: policy, CheckpointInterval: 0, CheckpointCost: units.Millisecond,
		RestartCost: 5 * units.Millisecond, HeartbeatTimeout: 2 * units.Millisecond}
	if fail {
		s.Faults = []scenario.Fault{{Kind: scenario.FailStop, GPU: 3, At: 0}}
	}
	return s
}

// TestCheckpointRestartLosesWorkSinceCheckpoint: a fail-stop costs the
// work since the last checkpoint, the heartbeat timeout and the restart.
func TestCheckpointRestartLosesWorkSinceCheckpoint(t *testing.T) {
	// The same run with a failure after its end: it checkpoints alike.
	h := restartRun(scenario.PolicyCheckpointRestart, true)
	h.Faults[0].At = units.Second
	healthy := mustSimulate(t, h)
	it := healthy.Iterations[0].Observed()
	// Fail 40% into the third iteration: the checkpoint after the second
	// one is the last.
	failAt := healthy.Iterations[2].Start + it*4/10
	s := restartRun(scenario.PolicyCheckpointRestart, true)
	s.Faults[0].At = failAt
	tl := mustSimulate(t, s)
	lost := failAt - healthy.Iterations[2].Start
	want := healthy.End + lost + s.Recovery.HeartbeatTimeout + s.Recovery.RestartCost
	if tl.End != want {
		t.Errorf("T = %v, want healthy %v + lost %v + heartbeat %v + restart %v = %v",
			tl.End, healthy.End, lost, s.Recovery.HeartbeatTimeout, s.Recovery.RestartCost, want)
	}
	aborted := 0
	for _, it := range tl.Iterations {
		if it.Aborted {
			aborted++
		}
	}
	if aborted != 1 || len(tl.Iterations) != 5 {
		t.Errorf("%d iterations, %d aborted; want 5 and 1", len(tl.Iterations), aborted)
	}
	if st, _ := tl.StateAt(3, failAt+units.Millisecond); st != timeline.StateFailed {
		t.Errorf("GPU 3 just after the failure: state %q, want failed", st)
	}
	if st, _ := tl.StateAt(0, failAt+units.Millisecond); st != timeline.StateHung {
		t.Errorf("GPU 0 just after the failure: state %q, want hung", st)
	}
	if st, _ := tl.StateAt(0, failAt+3*units.Millisecond); st != timeline.StateRestarting {
		t.Errorf("GPU 0 after detection: state %q, want restarting", st)
	}
}

// TestElasticDropsTheReplica: after the heartbeat timeout the failed
// GPU's replica is gone: the next iterations run on three replicas, and
// no span runs on GPU 3 after the failure.
func TestElasticDropsTheReplica(t *testing.T) {
	s := restartRun(scenario.PolicyElastic, true)
	s.Faults[0].At = 100 * units.Microsecond
	tl := mustSimulate(t, s)
	last := tl.Iterations[len(tl.Iterations)-1]
	if last.Replicas != 3 || !tl.Iterations[0].Aborted || tl.Iterations[1].Replicas != 3 || !tl.Iterations[1].Redo {
		t.Errorf("iterations %+v; want the first aborted, then a redo and the rest on 3 replicas", tl.Iterations)
	}
	for _, sp := range tl.Spans {
		if sp.GPU == 3 && sp.End > s.Faults[0].At {
			t.Errorf("span %+v on GPU 3 after its failure", sp)
		}
	}
	for _, c := range tl.Collectives {
		if c.Start > s.Faults[0].At && c.Ranks != 3 {
			t.Errorf("collective after the drop over %d ranks, want 3", c.Ranks)
		}
	}
}

// TestFaultRunsAreDeterministic: same scenario, same bytes.
func TestFaultRunsAreDeterministic(t *testing.T) {
	s := varlen()
	s.Faults = []scenario.Fault{{Kind: scenario.FailSlow, GPU: 1, Factor: 0.5}, {Kind: scenario.FailStop, GPU: 2, At: 30 * units.Millisecond}}
	s.Recovery.HeartbeatTimeout = units.Millisecond
	s.Recovery.Policy = scenario.PolicyElastic
	var prev []byte
	for range 3 {
		tl := mustSimulate(t, s)
		b, err := json.Marshal(tl)
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil && !bytes.Equal(prev, b) {
			t.Fatal("two runs of one scenario differ")
		}
		prev = b
	}
}
