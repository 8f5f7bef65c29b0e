package rlhf

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

func mustModel(t testing.TB, name string) workload.Model {
	t.Helper()
	m, err := workload.LookupModel(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustGPU(t testing.TB, name string) hw.GPU {
	t.Helper()
	g, err := hw.LookupGPU(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// smallConfig is an 8-GPU run of an 8B actor with 8B critic, reward and
// reference: small enough for a test, large enough that every phase shows.
func smallConfig(t testing.TB, placement string) Config {
	m := mustModel(t, "llama3-8b")
	return Config{Placement: placement, Actor: m, Reference: m, Reward: m, Critic: m,
		Prompts: 32, PromptLen: 256, ResponseLen: 512, GPUs: 8, GenGPUs: 4, GenTP: 2,
		GenGPU: mustGPU(t, "h20"), TrainGPU: mustGPU(t, "h100-sxm"), GenPrice: 1.2, TrainPrice: 2.5,
		Queue: 0, Staleness: Unbounded, SyncEvery: 1, SyncBandwidth: 50 * units.GBps, SyncLatency: 5 * units.Microsecond, Steps: 4}
}

// Independent closed forms of the cost model, written out again here so
// that the tests compare two computations, not one with itself.
func paramsOf(m workload.Model) float64 { return float64(workload.Params(m).Total()) }

// generationSeconds sums the decode steps as an arithmetic series: in the
// memory-bound regime step j reads 2P + b·(s_p + j)·κ bytes, so the R
// steps read R·2P + b·κ·(R·s_p + R(R−1)/2).
func generationSeconds(t *testing.T, m workload.Model, g hw.GPU, gpus, tp, prompts, sp, R int) float64 {
	t.Helper()
	P := paramsOf(m)
	b := float64((prompts + gpus/tp - 1) / (gpus / tp))
	kappa := 2.0 * float64(m.Layers) * float64(m.KVHeadCount()) * float64(m.Hidden/m.Heads) * 2
	bw := float64(g.HBMBandwidth) * float64(tp)
	flops := g.PeakFLOPS * g.Efficiency * float64(tp)
	// The regime check: even the last, longest step is memory bound.
	if last := (2*P + b*float64(sp+R)*kappa) / bw; 2*P*b/flops > last {
		t.Fatalf("test setup: decode is compute bound (%g s vs %g s); pick a smaller batch", 2*P*b/flops, last)
	}
	fr := float64(R)
	reads := fr*2*P + b*kappa*(fr*float64(sp)+fr*(fr-1)/2)
	return 2*P*b*float64(sp)/flops + reads/bw
}

func TestCoLocatedStepIsTheSumOfItsPhases(t *testing.T) {
	c := smallConfig(t, CoLocated)
	tl, err := Simulate(c, "co-located")
	if err != nil {
		t.Fatal(err)
	}
	g := c.TrainGPU
	n, tokens := float64(c.GPUs), float64(c.Prompts*(c.PromptLen+c.ResponseLen))
	rate := g.PeakFLOPS * g.Efficiency
	P := paramsOf(c.Actor)
	nvlink, _ := hw.LookupLink(g.Link)
	phases := []float64{
		2 * P * (1/float64(c.GenTP) - 1/n) / float64(nvlink.Effective()), // reshard
		generationSeconds(t, c.Actor, g, c.GPUs, c.GenTP, c.Prompts, c.PromptLen, c.ResponseLen),
		2 * P * tokens / (n * rate), // reference
		2 * P * tokens / (n * rate), // reward
		2 * P * tokens / (n * rate), // critic score
		6 * P * tokens / (n * rate), // actor train
		6 * P * tokens / (n * rate), // critic train
	}
	var step units.Time
	for _, s := range phases {
		step += units.Round(s)
	}
	t.Logf("phases (s): %.4f; step %v, run %v", phases, step, tl.End)
	for _, s := range tl.RLHF.Steps {
		got := s.TrainEnd - s.GenStart + tl.RLHF.Steps[0].GenStart // the step's reshard comes first
		if d := got - step; d < -10 || d > 10 {
			t.Errorf("step %d lasts %v, want the sum of its phases %v", s.Index, got, step)
		}
	}
	if want := units.Time(c.Steps) * step; math.Abs(float64(tl.End-want)) > float64(10*c.Steps) {
		t.Errorf("run ends at %v, want %d × %v = %v", tl.End, c.Steps, step, want)
	}
}

// steadyRate is the training steps per second between the ends of steps a
// and b.
func steadyRate(tl *timeline.Timeline, a, b int) float64 {
	s := tl.RLHF.Steps
	return float64(b-a) / (s[b].TrainEnd - s[a].TrainEnd).Seconds()
}

func TestDisaggregatedUnboundedQueueRunsAtTheSlowerPool(t *testing.T) {
	// Tolerance: 1% between the steady-state rate and min(gen, train).
	const tol = 0.01
	for _, tc := range []struct {
		name                     string
		genGPUs, genTP, response int
		syncEvery                int
	}{
		{"generation bound", 2, 1, 1024, 1},
		{"training bound", 6, 2, 128, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := smallConfig(t, Disaggregated)
			c.GenGPUs, c.GenTP, c.ResponseLen, c.SyncEvery, c.Steps = tc.genGPUs, tc.genTP, tc.response, tc.syncEvery, 48
			tl, err := Simulate(c, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			gen := generationSeconds(t, c.Actor, c.GenGPU, c.GenGPUs, c.GenTP, c.Prompts, c.PromptLen, c.ResponseLen)
			T := float64(c.GPUs - c.GenGPUs)
			tokens := float64(c.Prompts * (c.PromptLen + c.ResponseLen))
			P := paramsOf(c.Actor)
			rate := c.TrainGPU.PeakFLOPS * c.TrainGPU.Efficiency
			busy := 3*2*P*tokens/(T*rate) + 2*6*P*tokens/(T*rate)
			sync := c.SyncLatency.Seconds() + 2*P/(float64(c.GenTP)*float64(c.SyncBandwidth))*math.Max(1, float64(c.GenGPUs)/T)
			trainer := busy + sync/float64(c.SyncEvery)
			want := math.Min(1/gen, 1/trainer)
			got := steadyRate(tl, 16, 40) // 24 steps, whole sync periods
			t.Logf("steady rate %.5f steps/s; min(1/gen %.4fs, 1/trainer %.4fs) = %.5f; queue peak %d", got, gen, trainer, want, tl.RLHF.MaxQueue())
			if math.Abs(got/want-1) > tol {
				t.Errorf("steady rate %.4f steps/s, want min(1/%.3fs, 1/%.3fs) = %.4f within %g%%", got, gen, trainer, want, 100*tol)
			}
			if tc.name == "generation bound" && tl.RLHF.MaxQueue() > 1 {
				t.Errorf("queue reached %d batches; a slower generator should never queue more than 1", tl.RLHF.MaxQueue())
			}
			if tc.name == "training bound" && tl.RLHF.MaxQueue() < c.Steps/4 {
				t.Errorf("queue reached %d batches; an unbounded queue in front of a slow trainer should grow", tl.RLHF.MaxQueue())
			}
		})
	}
}

func TestStalenessZeroIsSynchronousAlternation(t *testing.T) {
	c := smallConfig(t, Disaggregated)
	c.Staleness, c.SyncEvery, c.Steps = 0, 1, 6
	tl, err := Simulate(c, "sync")
	if err != nil {
		t.Fatal(err)
	}
	ph := c.Phases()
	step := ph.Generate + ph.Reference + ph.Reward + ph.CriticScore + ph.ActorTrain + ph.CriticTrain + ph.Sync
	if want := units.Time(c.Steps) * step; tl.End != want {
		t.Errorf("run ends at %v, want %d × (generate + score + train + sync) = %v", tl.End, c.Steps, want)
	}
	steps := tl.RLHF.Steps
	for k, s := range steps {
		if s.Version != k {
			t.Errorf("batch %d generated with version %d, want %d (no staleness)", k, s.Version, k)
		}
		if k > 0 && s.GenStart < steps[k-1].TrainEnd+ph.Sync {
			t.Errorf("batch %d generated from %v, before step %d's weights arrived at %v", k, s.GenStart, k-1, steps[k-1].TrainEnd+ph.Sync)
		}
	}
	// Generation and training never overlap: the pools alternate.
	for _, g := range tl.Spans {
		for _, x := range tl.Spans {
			if g.Kind == timeline.Generate && x.Kind == timeline.Train && g.Start < x.End && x.Start < g.End {
				t.Fatalf("generation [%v, %v) overlaps training [%v, %v)", g.Start, g.End, x.Start, x.End)
			}
		}
	}
	c.Staleness = 2
	async, err := Simulate(c, "async")
	if err != nil {
		t.Fatal(err)
	}
	if async.End >= tl.End {
		t.Errorf("η = 2 ends at %v, not before η = 0 at %v", async.End, tl.End)
	}
	for _, s := range async.RLHF.Steps {
		if s.Staleness() > 2 || s.Staleness() < 0 {
			t.Errorf("η = 2: batch %d is %d versions stale", s.Index, s.Staleness())
		}
	}
}

func TestQueueCapacityBoundsDepth(t *testing.T) {
	c := smallConfig(t, Disaggregated)
	c.GenGPUs, c.ResponseLen, c.Steps, c.Queue = 6, 128, 24, 2
	tl, err := Simulate(c, "bounded")
	if err != nil {
		t.Fatal(err)
	}
	if got := tl.RLHF.MaxQueue(); got != c.Queue {
		t.Errorf("queue depth peaked at %d, want the capacity %d (a fast generator fills it)", got, c.Queue)
	}
}

func TestInterleavedOverlapsIndependentModels(t *testing.T) {
	c := smallConfig(t, Interleaved)
	tl, err := Simulate(c, "interleaved")
	if err != nil {
		t.Fatal(err)
	}
	ph := c.Phases()
	step := ph.Reshard + ph.Generate + max(ph.Reference, ph.Reward+ph.CriticScore) + max(ph.ActorTrain, ph.CriticTrain)
	if want := units.Time(c.Steps) * step; tl.End != want {
		t.Errorf("run ends at %v, want %d × (reshard + generate + max(ref, reward+critic) + max(actor, critic train)) = %v", tl.End, c.Steps, want)
	}
}

func TestDecodeRoofline(t *testing.T) {
	m, g := mustModel(t, "llama3-8b"), mustGPU(t, "h100-sxm")
	P := paramsOf(m)
	// One sequence with an empty cache: reading the weights bounds it.
	if got, want := DecodeStepSeconds(m, g, 1, 1, 0), 2*P/float64(g.HBMBandwidth); math.Abs(got/want-1) > 1e-12 {
		t.Errorf("batch 1: %g s, want 2P/BW = %g s", got, want)
	}
	// A huge batch with no cache: the FLOPs bound it.
	if got, want := DecodeStepSeconds(m, g, 1, 4096, 0), 2*P*4096/(g.PeakFLOPS*g.Efficiency); math.Abs(got/want-1) > 1e-12 {
		t.Errorf("batch 4096: %g s, want 2P·b/FLOPS = %g s", got, want)
	}
}

func TestValidateNamesFields(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"Placement", func(c *Config) { c.Placement = "everywhere" }},
		{"GenGPUs", func(c *Config) { c.GenGPUs = 8 }},
		{"GenTP", func(c *Config) { c.GenTP = 3 }},
		{"Prompts", func(c *Config) { c.Prompts = 0 }},
		{"Staleness", func(c *Config) { c.Staleness, c.SyncEvery = 1, 4 }},
		{"Staleness", func(c *Config) { c.Staleness = -7 }},
		{"Queue", func(c *Config) { c.Queue = -1 }},
		{"SyncEvery", func(c *Config) { c.SyncEvery = 0 }},
		{"Steps", func(c *Config) { c.Steps = MaxSteps + 1 }},
		{"GenPrice", func(c *Config) { c.GenPrice = math.NaN() }},
		{"Actor", func(c *Config) { c.Actor = workload.Model{Name: "broken"} }},
	} {
		c := smallConfig(t, Disaggregated)
		tc.edit(&c)
		err := c.Validate()
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("want an error naming %s, got %v", tc.field, err)
		}
	}
	c := smallConfig(t, Disaggregated)
	if err := c.Validate(); err != nil {
		t.Errorf("the test's config is invalid: %v", err)
	}
}

func TestSimulateIsDeterministic(t *testing.T) {
	c := smallConfig(t, Disaggregated)
	a, _ := Simulate(c, "x")
	b, _ := Simulate(c, "x")
	if len(a.Spans) != len(b.Spans) || a.End != b.End {
		t.Fatalf("two runs differ: %d spans ending %v, %d ending %v", len(a.Spans), a.End, len(b.Spans), b.End)
	}
	for i := range a.Spans {
		if a.Spans[i] != b.Spans[i] {
			t.Fatalf("span %d differs: %+v vs %+v", i, a.Spans[i], b.Spans[i])
		}
	}
}

func TestMemoryFollowsZeROAndFlagsOOM(t *testing.T) {
	c := smallConfig(t, Disaggregated)
	mem := c.Memory()
	P := paramsOf(c.Actor)
	T := float64(c.GPUs - c.GenGPUs)
	kappa := 2.0 * float64(c.Actor.Layers) * float64(c.Actor.KVHeadCount()) * float64(c.Actor.Hidden/c.Actor.Heads) * 2
	seqs := float64((c.Prompts + c.GenGPUs/c.GenTP - 1) / (c.GenGPUs / c.GenTP))
	// Generation pool: two bf16 copies of the actor's TP shard plus the
	// full KV cache. Training pool: two ZeRO-3 trained models (16P/T
	// each) and two frozen bf16 ones (2P/T each); all four are 8B here.
	wantGen := 2*2*P/float64(c.GenTP) + seqs*float64(c.PromptLen+c.ResponseLen)*kappa/float64(c.GenTP)
	wantTrain := 2*16*P/T + 2*2*P/T
	for i, want := range []float64{wantGen, wantTrain} {
		if got := float64(mem[i].Peak); math.Abs(got-want) > 2 {
			t.Errorf("pool %d: peak %.0f bytes, want %.0f", i, got, want)
		}
	}
	big := smallConfig(t, CoLocated)
	big.Actor, big.Reference, big.Reward, big.Critic = mustModel(t, "llama3-70b"), mustModel(t, "llama3-70b"), mustModel(t, "llama3-70b"), mustModel(t, "llama3-70b")
	tl, err := Simulate(big, "70B on 8 GPUs")
	if err != nil {
		t.Fatal(err)
	}
	if p := tl.RLHF.Pools[0]; !p.OOM() {
		t.Errorf("four 70B models co-located on 8 H100s: peak %v of %v, want it flagged out of memory", p.PeakMemory, p.Capacity)
	}
	small, _ := Simulate(smallConfig(t, CoLocated), "8B")
	if p := small.RLHF.Pools[0]; p.OOM() {
		t.Errorf("four 8B models on 8 H100s flagged out of memory: %v of %v", p.PeakMemory, p.Capacity)
	}
}

// The summary's JSON and its text agree on memory: a GPU of a pool the
// text calls OUT OF MEMORY says oom: true in --json, and no other does.
func TestSummaryJSONAgreesWithTextOnOOM(t *testing.T) {
	big := smallConfig(t, CoLocated)
	big.Actor, big.Reference, big.Reward, big.Critic = mustModel(t, "llama3-70b"), mustModel(t, "llama3-70b"), mustModel(t, "llama3-70b"), mustModel(t, "llama3-70b")
	for _, tc := range []struct {
		name    string
		c       Config
		wantOOM int
	}{
		{"four 70B co-located", big, big.GPUs},
		{"four 8B co-located", smallConfig(t, CoLocated), 0},
		{"8B disaggregated", smallConfig(t, Disaggregated), 0},
	} {
		tl, err := Simulate(tc.c, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		sum := tl.Summarize()
		data, err := json.Marshal(sum)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			GPUs []struct {
				Rank int  `json:"rank"`
				OOM  bool `json:"oom"`
			} `json:"gpus"`
		}
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		inPool := map[int]bool{}
		for _, p := range tl.RLHF.Pools {
			for _, g := range p.GPUs {
				inPool[g] = p.OOM()
			}
		}
		jsonOOM := 0
		for _, g := range got.GPUs {
			if g.OOM != inPool[g.Rank] {
				t.Errorf("%s: GPU %d oom %v in --json, its pool's OOM() %v", tc.name, g.Rank, g.OOM, inPool[g.Rank])
			}
			if g.OOM {
				jsonOOM++
			}
		}
		var text strings.Builder
		sum.WriteText(&text)
		// One OUT OF MEMORY per OOM pool line, and one per GPU row.
		textGPUs := 0
		for _, line := range strings.Split(text.String(), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "GPU ") && strings.HasSuffix(line, "OUT OF MEMORY") {
				textGPUs++
			}
		}
		if jsonOOM != tc.wantOOM || textGPUs != tc.wantOOM {
			t.Errorf("%s: %d GPUs oom in --json, %d rows OUT OF MEMORY in the text, want %d and %d\n%s", tc.name, jsonOOM, textGPUs, tc.wantOOM, tc.wantOOM, text.String())
		}
	}
}
