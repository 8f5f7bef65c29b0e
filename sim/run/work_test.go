package run

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"paraplay/sim/budget"
	"paraplay/sim/golden"
	"paraplay/sim/inference"
	"paraplay/sim/rlhf"
	"paraplay/sim/scenario"
	"paraplay/sim/splitlearn"
	"paraplay/sim/units"
)

// actual is what one run really cost, to hold its bound to.
type actual struct {
	events, transfers, spans, trace, memory float64
}

// measure runs s and counts: the engine's events, the timeline's
// transfers and its spans and fault states, the Chrome trace's bytes, and
// as memory the bytes the run allocated (runtime.MemStats.TotalAlloc over
// Simulate: at least its peak heap, and deterministic for one goroutine).
func measure(t *testing.T, s scenario.Scenario) actual {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tl, err := Simulate(s)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("%s: %v", s.Title(), err)
	}
	var trace bytes.Buffer
	if err := tl.WriteChromeTrace(&trace); err != nil {
		t.Fatal(err)
	}
	return actual{float64(tl.Events), float64(tl.Transfers.Len()), float64(len(tl.Spans) + len(tl.States)),
		float64(trace.Len()), float64(after.TotalAlloc - before.TotalAlloc)}
}

// measureWarm is measure, with the memory of a run over its bound
// measured again: the first run of a shape in a fresh process also fills
// process-wide caches that later runs share (operator prices per GPU and
// layer shape, sync.Once tables), so a test run alone would measure more
// than the same run in its place in the package. The run's own cost is
// the second measurement.
func measureWarm(t *testing.T, s scenario.Scenario, w budget.Work) actual {
	t.Helper()
	a := measure(t, s)
	if a.memory > w.Memory.N {
		a.memory = min(a.memory, measure(t, s).memory)
	}
	return a
}

// checkBound holds every count of w to a: bound ≥ actual, and bound ≤ 10
// × actual (a bound over a count of zero must be small: at most 64).
func checkBound(t *testing.T, name string, w budget.Work, a actual) {
	t.Helper()
	for _, c := range []struct {
		what         string
		bound, count float64
	}{{"events", w.Events.N, a.events}, {"transfers", w.Transfers.N, a.transfers}, {"spans", w.Spans.N, a.spans},
		{"trace bytes", w.TraceBytes.N, a.trace}, {"memory", w.Memory.N, a.memory}} {
		if c.bound < c.count || c.bound > 10*max(c.count, 6.4) {
			t.Errorf("%s: %s: bound %.4g, actual %.4g (ratio %.2f); want actual ≤ bound ≤ 10 × actual", name, c.what, c.bound, c.count, c.bound/c.count)
		}
	}
}

// TestWorkBoundsTestdata holds every strategy's Work to the real counts of
// every scenario under sim/scenario/testdata (a long run's one iteration
// as Simulate plays it).
func TestWorkBoundsTestdata(t *testing.T) {
	files := append(golden.Files(t, "../scenario/testdata/*.yaml"), golden.Files(t, "../scenario/testdata/long/*.yaml")...)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		s.Failures.Duration = 0
		w, err := Work(s)
		if err != nil {
			t.Fatal(err)
		}
		checkBound(t, filepath.Base(file), w, measureWarm(t, s, w))
	}
}

// TestWorkBoundsRandom holds the bounds to 1,000 random scenarios of every
// strategy, drawn from a seeded source (the same ones on every run):
// testdata scenarios with their sizes, plans and settings changed.
func TestWorkBoundsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 runs")
	}
	bases := testdataScenarios(t)
	rng := rand.New(rand.NewPCG(19, 2026))
	small := budget.Limits{Who: "the test allows", Events: 400e3, Transfers: 100e3, Spans: 100e3, TraceBytes: 64e6, Memory: 128 << 20}
	runs, tries := 0, 0
	for runs < 1000 && tries < 200000 {
		tries++
		s := randomScenario(rng, bases[rng.IntN(len(bases))])
		w, err := Work(s)
		if err != nil || small.Check(w) != nil {
			continue
		}
		checkBound(t, s.Title()+" ("+s.Describe()+")", w, measureWarm(t, s, w))
		runs++
	}
	if runs < 1000 {
		t.Fatalf("only %d valid scenarios in %d draws", runs, tries)
	}
	t.Logf("%d scenarios from %d draws", runs, tries)
}

// testdataScenarios parses every scenario under sim/scenario/testdata:
// the bases the random tests vary.
func testdataScenarios(t *testing.T) []scenario.Scenario {
	t.Helper()
	var bases []scenario.Scenario
	for _, file := range golden.Files(t, "../scenario/testdata/*.yaml") {
		data, _ := os.ReadFile(file)
		s, err := scenario.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		bases = append(bases, s)
	}
	return bases
}

// randomScenario changes a few of base's settings at random.
func randomScenario(rng *rand.Rand, s scenario.Scenario) scenario.Scenario {
	pick := func(vs ...int) int { return vs[rng.IntN(len(vs))] }
	pickS := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	s.Seed = rng.Uint64()
	s.Name = ""
	for range 1 + rng.IntN(4) {
		switch rng.IntN(14) {
		case 0:
			s.GPUs = pick(2, 3, 4, 8, 16)
		case 1:
			if s.Cluster.GPU != "" {
				s.Cluster.Nodes, s.Cluster.GPUsPerNode = pick(1, 2, 4), pick(2, 4, 8)
			}
		case 2:
			s.Collective.Chunks = pick(1, 2, 4, 8)
		case 3:
			s.Collective.Algorithm = pickS("ring", "tree", "auto", "recursive_doubling", "halving_doubling")
		case 4:
			s.Iterations = pick(1, 2, 3, 5)
		case 5:
			s.Parallel.DP, s.Parallel.TP, s.Parallel.PP = pick(1, 2, 4), pick(1, 2, 4, 8), pick(1, 2, 4)
		case 6:
			s.Parallel.Microbatches = pick(1, 2, 4, 8, 16, 32)
		case 7:
			s.Parallel.Schedule = pickS("1f1b", "gpipe", "interleaved", "zb-h1")
			s.Parallel.VirtualStages = pick(1, 2)
		case 8:
			s.Parallel.ZeRO = pick(0, 1, 2, 3)
			s.Parallel.ZeROGroup = pick(0, 0, 1, 2)
			s.Parallel.ZeROLayers = pick(0, 0, 1, 2)
		case 9:
			s.Fidelity = pickS("auto", "detailed", "analytic")
		case 10:
			s.Sync.Servers, s.Sync.Layers, s.Sync.Period = pick(1, 2), pick(1, 2, 4), pick(1, 2, 3)
		case 11:
			s.Link.Bandwidth = units.Bandwidth(pick(1, 10, 100, 1000)) * units.GBps
			s.Compute.Jitter = float64(pick(0, 1, 5)) / 10
		case 12:
			splitlearn.Edit(&s, func(y *splitlearn.Settings) {
				y.Clients, y.Hops, y.LocalSteps = pick(1, 2, 4, 16), pick(1, 2, 3), pick(1, 2, 4)
			})
			inference.Edit(&s, func(y *inference.Settings) { y.Output, y.Requests = pick(1, 4, 16, 64), pick(1, 2, 8, 32) })
		case 13:
			rlhf.Edit(&s, func(y *rlhf.Settings) { y.Prompts = pick(64, 256, 1024) })
			s.Straggler.CV = float64(pick(0, 0, 1)) / 10
		}
	}
	return s
}

// TestWorkBoundsLargeCollectives holds the bounds to collectives on 512
// GPUs, beyond the random scenarios' sizes, whose schedules cut the
// buffer in a chunk per rank or more: a halving-doubling all-reduce's
// builder table outweighs its messages there (collective.BuildBytes;
// until 2026-12 its bound was a third short).
func TestWorkBoundsLargeCollectives(t *testing.T) {
	if testing.Short() {
		t.Skip("512-GPU runs")
	}
	for _, c := range []struct {
		op, algo, network string
		chunks            int
	}{
		{"all_reduce", "halving_doubling", "fat-tree", 8},
		{"all_reduce", "recursive_doubling", "fat-tree", 1},
		{"all_reduce", "tree", "fat-tree", 4},
		{"all_reduce", "hierarchical", "rail-optimized", 1},
		{"broadcast", "chain", "rail-optimized", 16},
	} {
		y := fmt.Sprintf("strategy: collective\ncluster:\n  gpu: h100-sxm\n  nodes: 64\n  gpus_per_node: 8\n  inter: ib-ndr\n  network: %s\n"+
			"collective:\n  op: %s\n  algorithm: %s\n  size: 1GiB\n  chunks: %d\n", c.network, c.op, c.algo, c.chunks)
		s, err := scenario.Parse([]byte(y))
		if err != nil {
			t.Fatal(err)
		}
		w, err := Work(s)
		if err != nil {
			t.Fatal(err)
		}
		checkBound(t, s.Title(), w, measureWarm(t, s, w))
	}
}
