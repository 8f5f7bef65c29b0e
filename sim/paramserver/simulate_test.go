package paramserver

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// psScenario is a parameter-server run of n workers with the given speeds.
func psScenario(mode string, speeds []float64, iters int) scenario.Scenario {
	s := scenario.Default()
	s.Name = "ps"
	s.Strategy = Name
	s.GPUs = len(speeds)
	s.Sync.Mode, s.Sync.Speeds, s.Iterations = mode, speeds, iters
	s.Collective.Size = 64 * units.MiB
	return s
}

// sameRun reports whether two runs did the same thing at the same instants:
// spans, messages and every iteration's start, end, wait and lag.
func sameRun(t *testing.T, what string, a, b *timeline.Timeline) {
	t.Helper()
	if a.End != b.End {
		t.Errorf("%s: end %v vs %v", what, a.End, b.End)
	}
	if !reflect.DeepEqual(a.Spans, b.Spans) {
		t.Errorf("%s: the compute spans differ", what)
	}
	if !reflect.DeepEqual(a.Transfers, b.Transfers) {
		t.Errorf("%s: the messages differ", what)
	}
	// The limits differ by definition (0 or s vs −1), and so does the
	// staleness: BSP applies a round of pushes as one update, SSP each push.
	strip := func(its []timeline.WorkerIteration) []timeline.WorkerIteration {
		out := append([]timeline.WorkerIteration(nil), its...)
		for i := range out {
			out[i].Limit, out[i].Staleness = 0, 0
		}
		return out
	}
	if !reflect.DeepEqual(strip(a.Async.Iterations), strip(b.Async.Iterations)) {
		t.Errorf("%s: the iterations (starts, waits, lags) differ", what)
	}
}

// Acceptance: SSP with s = 0 is BSP and SSP with an unreachable bound is
// ASP — BSP and ASP are dependencies of the task graph, SSP a rule that
// holds and releases pulls, so this checks one mechanism against another.
func TestSSPEndpoints(t *testing.T) {
	for _, tc := range []struct {
		speeds  []float64
		servers int
		jitter  float64
	}{
		{[]float64{1, 1, 0.5, 0.25}, 1, 0},
		{[]float64{1, 0.7, 0.5, 0.3, 0.9, 0.2}, 2, 0.2},
		{[]float64{0.4, 1, 1, 1, 1, 1, 1, 1}, 4, 0.1},
	} {
		run := func(mode string, s int) *timeline.Timeline {
			sc := psScenario(mode, tc.speeds, 12)
			sc.Sync.Servers, sc.Sync.Staleness, sc.Compute.Jitter, sc.Seed = tc.servers, s, tc.jitter, 7
			return mustSimulate(t, sc)
		}
		what := fmt.Sprintf("speeds %v, %d servers", tc.speeds, tc.servers)
		bsp, ssp0 := run(scenario.SyncBSP, 0), run(scenario.SyncSSP, 0)
		sameRun(t, what+": SSP s=0 vs BSP", ssp0, bsp)
		asp, sspInf := run(scenario.SyncASP, 0), run(scenario.SyncSSP, scenario.MaxStaleness)
		sameRun(t, what+": SSP s=∞ vs ASP", sspInf, asp)
		if w1, w2 := totalWait(bsp), totalWait(asp); w1 <= w2 || w2 != 0 {
			t.Errorf("%s: workers waited %v in all under BSP and %v under ASP; want more under BSP and none under ASP", what, w1, w2)
		}
		t.Logf("%s: BSP = SSP(0) = %v, ASP = SSP(∞) = %v", what, bsp.End, asp.End)
	}
}

func totalWait(tl *timeline.Timeline) units.Time {
	var w units.Time
	for _, it := range tl.Async.Iterations {
		w += it.Wait
	}
	return w
}

// The BSP closed form with one server whose port serves one message at a
// time: every iteration starts when the last push lands; the server sends
// the model to workers 0, 1, …, n−1 in turn (each message α + S/B), worker
// i computes c_i = (F + B)/speed_i, and the iteration ends with the last
// push, α + S/B after the slowest finishes:
//
//	T_iter = max_i ((i+1)·T + c_i) + T,   T = α + S/B
//
// (valid while no two pushes overlap at the server, which these speeds
// ensure). A run of K iterations takes K·T_iter.
func TestBSPClosedForm(t *testing.T) {
	for _, tc := range []struct {
		speeds []float64
		size   units.Bytes
		bw     units.Bandwidth
		alpha  units.Time
	}{
		{[]float64{1, 0.8, 0.6, 0.4}, 64 * units.MiB, 100 * units.GBps, 5 * units.Microsecond},
		{[]float64{0.25, 1, 1, 1}, 16 * units.MiB, 25 * units.GBps, 10 * units.Microsecond},
		{[]float64{1, 0.9, 0.5, 0.45, 0.3, 0.2, 0.15, 0.1}, 4 * units.MiB, 50 * units.GBps, 2 * units.Microsecond},
	} {
		const iters = 5
		s := psScenario(scenario.SyncBSP, tc.speeds, iters)
		s.Collective.Size, s.Link.Bandwidth, s.Link.Latency = tc.size, tc.bw, tc.alpha
		tl := mustSimulate(t, s)
		T := tc.alpha.Seconds() + float64(tc.size)/float64(tc.bw)
		var worst float64
		for i, v := range tc.speeds {
			c := (s.Compute.Forward + s.Compute.Backward).Seconds() / v
			worst = max(worst, float64(i+1)*T+c)
		}
		want := iters * (worst + T)
		got := tl.End.Seconds()
		if d := math.Abs(got - want); d > 1e-8 {
			t.Errorf("speeds %v: BSP run took %.9fs, closed form %.9fs (off by %.3gs)", tc.speeds, got, want, d)
		}
		t.Logf("speeds %v: BSP iteration %.6fms, closed form %.6fms", tc.speeds, 1e3*got/iters, 1e3*want/iters)
		for _, it := range tl.Async.Iterations {
			if it.Lag != 0 || it.Staleness != 0 {
				t.Fatalf("BSP iteration %+v has a lag or staleness", it)
			}
		}
	}
}

// ASP: each worker cycles pull, compute, push on its own, so with little
// contention at the server the run's throughput is the sum of the worker
// rates, Σ_i 1/(c_i + 2T). Measured over the window in which every worker
// is still busy (until the first one finishes).
func TestASPThroughputIsSumOfRates(t *testing.T) {
	for _, speeds := range [][]float64{{1, 0.5, 0.25, 0.2}, {1, 1, 1, 0.1}, {0.3, 0.6, 0.9}} {
		s := psScenario(scenario.SyncASP, speeds, 60)
		s.Collective.Size = 8 * units.MiB
		tl := mustSimulate(t, s)
		T := s.Link.Latency.Seconds() + float64(s.Collective.Size)/float64(s.Link.Bandwidth)
		var want float64
		for _, v := range speeds {
			want += 1 / ((s.Compute.Forward+s.Compute.Backward).Seconds()/v + 2*T)
		}
		window := tl.End
		for _, it := range tl.Async.Iterations {
			if it.Index == s.Iterations-1 {
				window = min(window, it.End)
			}
		}
		done := 0
		for _, it := range tl.Async.Iterations {
			if it.End <= window {
				done++
			}
		}
		got := float64(done) / window.Seconds()
		if rel := math.Abs(got-want) / want; rel > 0.03 {
			t.Errorf("speeds %v: ASP throughput %.2f it/s, sum of rates %.2f it/s (error %.2f%%)", speeds, got, want, 100*rel)
		}
		t.Logf("speeds %v: ASP %.2f it/s, Σ rates %.2f it/s", speeds, got, want)
	}
}

// Under SSP no worker starts an iteration more than s ahead of the slowest
// worker's pushes, and with mixed speeds the bound is reached. Under DSSP
// the lag stays within s_U = s_L + r.
func TestStalenessBounds(t *testing.T) {
	speeds := []float64{1, 0.9, 0.35, 0.2, 1, 0.6}
	for _, s := range []int{0, 1, 2, 3, 5} {
		for _, seed := range []uint64{1, 2, 3} {
			sc := psScenario(scenario.SyncSSP, speeds, 20)
			sc.Sync.Staleness, sc.Compute.Jitter, sc.Seed = s, 0.3, seed
			tl := mustSimulate(t, sc)
			most := 0
			for _, it := range tl.Async.Iterations {
				if it.Lag > s {
					t.Fatalf("SSP s=%d seed %d: worker %d started iteration %d with lag %d", s, seed, it.Worker, it.Index, it.Lag)
				}
				most = max(most, it.Lag)
			}
			if most != s {
				t.Errorf("SSP s=%d seed %d: the largest lag is %d; with a 5× slower worker it should reach s", s, seed, most)
			}
		}
	}
	for _, r := range []int{0, 1, 3} {
		sc := psScenario(scenario.SyncDSSP, speeds, 20)
		sc.Sync.Staleness, sc.Sync.StalenessRange = 1, r
		tl := mustSimulate(t, sc)
		most := 0
		for _, it := range tl.Async.Iterations {
			if it.Lag > 1+r || it.Lag > it.Limit {
				t.Fatalf("DSSP s_L=1 r=%d: worker %d iteration %d has lag %d (limit %d)", r, it.Worker, it.Index, it.Lag, it.Limit)
			}
			most = max(most, it.Lag)
		}
		if r > 0 && most <= 1 {
			t.Errorf("DSSP s_L=1 r=%d: the controller never let a worker past s_L (largest lag %d)", r, most)
		}
		ssp := psScenario(scenario.SyncSSP, speeds, 20)
		ssp.Sync.Staleness = 1
		if r == 0 && mustSimulate(t, ssp).End != tl.End {
			t.Errorf("DSSP with r = 0 should be SSP with s = s_L")
		}
		t.Logf("DSSP s_L=1 r=%d: largest lag %d, run %v", r, most, tl.End)
	}
}

func TestParameterServerDeterministic(t *testing.T) {
	for _, mode := range scenario.SyncModes {
		s := psScenario(mode, []float64{1, 0.5, 0.7, 0.3}, 10)
		s.Compute.Jitter, s.Seed, s.Sync.Servers = 0.4, 11, 2
		a, _ := json.Marshal(mustSimulate(t, s))
		b, _ := json.Marshal(mustSimulate(t, s))
		if string(a) != string(b) {
			t.Errorf("%s: two runs of the same scenario differ", mode)
		}
	}
}

// Sharding the model over more servers divides each server's traffic, so a
// BSP iteration that waits on one server's port gets shorter; the bytes on
// the wire do not change.
func TestShardingShortensTheServerBottleneck(t *testing.T) {
	var ends []units.Time
	var bytes []units.Bytes
	for _, k := range []int{1, 2, 4} {
		s := psScenario(scenario.SyncBSP, []float64{1, 1, 1, 1}, 3)
		s.Sync.Servers = k
		tl := mustSimulate(t, s)
		ends, bytes = append(ends, tl.End), append(bytes, tl.Async.Bytes)
	}
	if !(ends[0] > ends[1] && ends[1] > ends[2]) {
		t.Errorf("BSP with 1, 2, 4 servers took %v; want decreasing", ends)
	}
	if bytes[0] != bytes[1] || bytes[1] != bytes[2] {
		t.Errorf("bytes on the wire %v; want the same", bytes)
	}
}

// Compression divides the bytes by the ratio (up to rounding per message)
// and adds its compute on the workers.
func TestCompressionShrinksTraffic(t *testing.T) {
	s := psScenario(scenario.SyncBSP, []float64{1, 1, 1, 1}, 4)
	plain := mustSimulate(t, s)
	s.Compression.Ratio, s.Compression.TimePerMiB = 0.1, 10*units.Microsecond
	small := mustSimulate(t, s)
	if got, want := float64(small.Async.Bytes), 0.1*float64(plain.Async.Bytes); math.Abs(got-want) > float64(small.Transfers.Len()) {
		t.Errorf("compressed bytes %v, want 0.1 × %v", small.Async.Bytes, plain.Async.Bytes)
	}
	compress := 0
	for _, sp := range small.Spans {
		if sp.Kind == timeline.Compress {
			compress++
			if d := sp.End - sp.Start; d != 640*units.Microsecond {
				t.Fatalf("a compression span of 64 MiB at 10µs/MiB lasts %v, want 640µs", d)
			}
		}
	}
	if compress != 2*4*4 {
		t.Errorf("%d compression spans, want one before each push and one after each pull (32)", compress)
	}
}

func FuzzParameterServer(f *testing.F) {
	f.Add(uint8(0), uint8(2), uint8(1), uint8(4), uint8(6), uint64(1), 0.1)
	f.Add(uint8(3), uint8(1), uint8(3), uint8(5), uint8(9), uint64(5), 0.5)
	f.Fuzz(func(t *testing.T, mode, staleness, rng, workers, iters uint8, seed uint64, jitter float64) {
		s := psScenario(scenario.SyncModes[int(mode)%len(scenario.SyncModes)], nil, 1+int(iters)%12)
		s.GPUs = 2 + int(workers)%7
		s.Sync.Staleness, s.Sync.StalenessRange = int(staleness)%6, int(rng)%4
		s.Sync.Servers = 1 + int(workers)%s.GPUs
		s.Compute.Jitter, s.Seed = math.Mod(math.Abs(jitter), 0.9), seed
		for i := 0; i < s.GPUs; i++ {
			s.Sync.Speeds = append(s.Sync.Speeds, 0.2+0.8*float64((seed>>i)&7)/7)
		}
		s.Collective.Size = units.MiB
		if s.Validate() != nil {
			return
		}
		tl, err := Simulate(s) // validates the timeline, lags within limits included
		if err != nil {
			t.Fatalf("%s: %v", s.Describe(), err)
		}
		if got, want := len(tl.Async.Iterations), s.GPUs*s.Iterations; got != want {
			t.Errorf("%d iterations recorded, want %d", got, want)
		}
	})
}

// Four workers, one four times slower than the others: under SSP with s = 1
// the fast ones run one iteration ahead of it, then wait for it each time.
func ExampleSimulate() {
	s := scenario.Default()
	s.Strategy = Name
	s.Sync.Mode, s.Sync.Staleness, s.Iterations = scenario.SyncSSP, 1, 4
	s.Sync.Speeds = []float64{1, 1, 1, 0.25}
	tl, err := Simulate(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, it := range tl.Async.Iterations {
		if it.Worker == 0 {
			fmt.Printf("worker 0, iteration %d: lag %d, waited %v\n", it.Index, it.Lag, it.Wait)
		}
	}
	// Output:
	// worker 0, iteration 0: lag 0, waited 0ns
	// worker 0, iteration 1: lag 1, waited 0ns
	// worker 0, iteration 2: lag 1, waited 14.689355ms
	// worker 0, iteration 3: lag 1, waited 15.310645ms
}

// straggler.cv slows every compute span by a lognormal factor of mean 1:
// over many spans their mean stays near nominal while they spread.
func TestStragglerSlowsWorkers(t *testing.T) {
	s := psScenario(scenario.SyncASP, []float64{1, 1, 1, 1}, 60)
	s.Straggler.CV = 0.3
	tl := mustSimulate(t, s)
	var sum, sq float64
	n := 0
	for _, sp := range tl.Spans {
		if sp.Kind == timeline.Backward {
			d := (sp.End - sp.Start).Seconds() / s.Compute.Backward.Seconds()
			sum, sq, n = sum+d, sq+d*d, n+1
		}
	}
	mean := sum / float64(n)
	cv := math.Sqrt(sq/float64(n)-mean*mean) / mean
	if math.Abs(mean-1) > 0.06 || math.Abs(cv-0.3) > 0.06 {
		t.Errorf("backward spans: mean %.3f × nominal, cv %.3f; want about 1 and 0.3", mean, cv)
	}
}

// BenchmarkParameterServer is the largest parameter-server run a scenario
// allows: 64 workers, 64 iterations, 8 server shards, DSSP.
func BenchmarkParameterServer(b *testing.B) {
	speeds := make([]float64, 64)
	for i := range speeds {
		speeds[i] = 0.25 + 0.75*float64(i%7)/6
	}
	s := psScenario(scenario.SyncDSSP, speeds, 64)
	s.Sync.Servers, s.Sync.Staleness, s.Sync.StalenessRange = 8, 2, 4
	for b.Loop() {
		if _, err := strategytest.Run(Simulate, s); err != nil { // validated, as run.Simulate does
			b.Fatal(err)
		}
	}
}

func mustSimulate(t testing.TB, s scenario.Scenario) *timeline.Timeline {
	t.Helper()
	return strategytest.MustRun(t, Simulate, s)
}
