package fault

import (
	"math"
	"reflect"
	"testing"

	"paraplay/sim/units"
)

const minute = 60 * units.Second

// job is a 2,048-node job with dp 128 (16 nodes per replica), pp 16 and
// 16 microbatches, a 10 s iteration of which 6 s compute and 3 s bubble.
func job() Job {
	return Job{Nodes: 2048, Iteration: 10 * units.Second, Replicas: 128, Stages: 16, Microbatches: 16,
		Compute: 6 * units.Second, ForwardShare: 1.0 / 3, Bubble: 3 * units.Second}
}

func mix(t *testing.T) Mix {
	m, err := ParseMix(DefaultMix)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func crConfig(t *testing.T) Config {
	return Config{Job: job(), Mix: mix(t), RatePerNodeDay: Llama3RatePerNodeDay, Seed: 1,
		Recovery: Recovery{Policy: CheckpointRestart, CheckpointInterval: 10 * minute, CheckpointCost: minute,
			RestartCost: 5 * minute, HeartbeatTimeout: 30 * units.Second, ReconfigureCost: minute, RepairTime: 120 * minute}}
}

// A fail-stop under checkpoint-restart loses exactly the work since the
// last checkpoint, plus detection and restart: nothing else.
func TestCheckpointRestartLosesTheWorkSinceTheCheckpoint(t *testing.T) {
	tests := []struct {
		name     string
		at       units.Time
		lostWork units.Time
		ckpts    int
	}{
		// Train 0–10, checkpoint 10–11, train 11–21, checkpoint 21–22
		// (progress 20 saved), train 22–25: 3 min since the checkpoint.
		{"while training", 25 * minute, 3 * minute, 6},
		// Half-way through the second checkpoint write: it is lost, and
		// so is everything since the first (10 min of work).
		{"while writing a checkpoint", 21*minute + 30*units.Second, 10 * minute, 6},
		// Right after a checkpoint completes: nothing to redo.
		{"just after a checkpoint", 22 * minute, 0, 6},
	}
	for _, tc := range tests {
		cfg := crConfig(t)
		cfg.Work = 60 * minute
		rep, err := Replay(cfg, []Failure{{At: tc.at, Node: 5, Cause: "gpu"}})
		if err != nil {
			t.Fatal(err)
		}
		rc := cfg.Recovery
		if rep.Lost.Work != tc.lostWork {
			t.Errorf("%s: lost work = %v, want %v", tc.name, rep.Lost.Work, tc.lostWork)
		}
		if rep.Lost.Restart != rc.RestartCost || rep.Lost.Detection != rc.HeartbeatTimeout {
			t.Errorf("%s: restart %v, detection %v; want %v and %v", tc.name, rep.Lost.Restart, rep.Lost.Detection, rc.RestartCost, rc.HeartbeatTimeout)
		}
		if rep.Lost.Degraded != 0 || rep.Lost.Reconfigure != 0 {
			t.Errorf("%s: degraded %v, reconfigure %v; want 0", tc.name, rep.Lost.Degraded, rep.Lost.Reconfigure)
		}
		// Closed form: the work, the checkpoints written (whole or not),
		// the lost work, detection and restart.
		want := cfg.Work + rep.Lost.Checkpoint + tc.lostWork + rc.HeartbeatTimeout + rc.RestartCost
		if rep.Wall != want {
			t.Errorf("%s: wall = %v, want %v", tc.name, rep.Wall, want)
		}
		if rep.Useful != cfg.Work || rep.Wall-rep.Useful != rep.Lost.Total() {
			t.Errorf("%s: useful %v, wall − useful %v, lost %v: the books do not balance", tc.name, rep.Useful, rep.Wall-rep.Useful, rep.Lost.Total())
		}
		if got, want := rep.ByCause[0], (CauseCount{"gpu", 1, tc.lostWork + rc.HeartbeatTimeout + rc.RestartCost}); got != want {
			t.Errorf("%s: by cause %+v, want %+v", tc.name, got, want)
		}
		if rep.Checkpoints != tc.ckpts-1 { // the last one was begun as the work ended
			t.Errorf("%s: %d checkpoints, want %d", tc.name, rep.Checkpoints, tc.ckpts-1)
		}
	}
}

// Elastic: a lost node costs the iteration in flight, detection, a
// reconfiguration, 1/dp of the throughput until it returns, and a
// reconfiguration when it rejoins.
func TestElasticDropsAReplicaUntilTheNodeReturns(t *testing.T) {
	cfg := crConfig(t)
	cfg.Recovery.Policy = Elastic
	cfg.Recovery.CheckpointInterval = 1000 * minute // no checkpoint in the way
	cfg.Work = 600 * minute
	at := 100*minute + 4*units.Second // 4 s into an iteration
	rep, err := Replay(cfg, []Failure{{At: at, Node: 17, Cause: "hbm3"}})
	if err != nil {
		t.Fatal(err)
	}
	rc := cfg.Recovery
	if rep.Lost.Work != 4*units.Second {
		t.Errorf("lost work = %v, want the 4s of the iteration in flight", rep.Lost.Work)
	}
	if rep.Lost.Reconfigure != 2*rc.ReconfigureCost || rep.Lost.Detection != rc.HeartbeatTimeout || rep.Lost.Restart != 0 {
		t.Errorf("reconfigure %v, detection %v, restart %v; want 2×%v, %v, 0", rep.Lost.Reconfigure, rep.Lost.Detection, rep.Lost.Restart, rc.ReconfigureCost, rc.HeartbeatTimeout)
	}
	// The node is away for the repair time, during which the job trains
	// (after detection and reconfiguration) at 127/128.
	degradedFor := rc.RepairTime - rc.HeartbeatTimeout - rc.ReconfigureCost
	want := units.Round(degradedFor.Seconds() / 128)
	if d := rep.Lost.Degraded - want; d < -1 || d > 1 {
		t.Errorf("degraded = %v, want %v (1/128 of %v)", rep.Lost.Degraded, want, degradedFor)
	}
	if rep.Wall-rep.Useful != rep.Lost.Total() {
		t.Errorf("wall − useful %v ≠ lost %v", rep.Wall-rep.Useful, rep.Lost.Total())
	}
	// The HBM3 failure is blamed for all of it but the rejoining.
	if got, want := rep.ByCause[1].Lost, rep.Lost.Work+rc.HeartbeatTimeout+rc.ReconfigureCost+rep.Lost.Degraded; got != want {
		t.Errorf("hbm3 lost %v, want in-flight work + detection + one reconfiguration + degraded = %v", got, want)
	}
}

// A software failure takes no node: every policy restarts from the last
// checkpoint.
func TestSoftwareFailuresRestartUnderEveryPolicy(t *testing.T) {
	for _, p := range []string{Elastic, Redundant, Reroute} {
		cfg := crConfig(t)
		cfg.Recovery.Policy = p
		cfg.Work = 60 * minute
		rep, err := Replay(cfg, []Failure{{At: 25 * minute, Node: 5, Cause: "software"}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Lost.Work != 3*minute || rep.Lost.Restart != cfg.Recovery.RestartCost {
			t.Errorf("%s: lost work %v, restart %v; want 3m0s and %v", p, rep.Lost.Work, rep.Lost.Restart, cfg.Recovery.RestartCost)
		}
	}
}

// Redundant computation (Bamboo) and rerouting (ReCycle): their speeds
// follow the closed forms of their cost models.
func TestRedundantAndRerouteSpeeds(t *testing.T) {
	j := job()
	j.Bubble = units.Second // the redundant forward, 2 s, overflows it by 1 s
	red, err := newModel(Redundant, j)
	if err != nil {
		t.Fatal(err)
	}
	steady, _ := red.speed(0)
	if want := 10.0 / 11; math.Abs(steady-want) > 1e-12 {
		t.Errorf("redundant steady speed = %v, want T/(T + F·share − bubble) = 10/11", steady)
	}
	failed, _ := red.speed(1)
	if want := 10.0 / 11 * 31 / 47; math.Abs(failed-want) > 1e-12 {
		t.Errorf("redundant speed after failover = %v, want 10/11 · (m+p−1)/(2m+p−1) = %v", failed, want)
	}
	j.Bubble = 0
	rr, _ := newModel(Reroute, j)
	got, _ := rr.speed(1)
	if want := 10 / (10 + 6.0/127); math.Abs(got-want) > 1e-12 {
		t.Errorf("reroute speed = %v, want T/(T + compute/(dp−1)) = %v", got, want)
	}
	j.Bubble = 3 * units.Second
	rr, _ = newModel(Reroute, j)
	if got, _ := rr.speed(1); got != 1 {
		t.Errorf("reroute speed = %v with the extra work inside the bubble, want 1", got)
	}
}

// Over a long run the number of failures is Poisson with mean
// rate × nodes × time: for a fixed seed it must fall within 4σ = 4√μ.
func TestFailureCountMatchesTheRate(t *testing.T) {
	cfg := crConfig(t)
	cfg.Duration = 365 * Day
	rep, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mean := Llama3RatePerNodeDay * 2048 * 365
	t.Logf("%d failures in 365 days, want %.1f ± %.1f; by cause %v", rep.Failures, mean, 4*math.Sqrt(mean), rep.ByCause)
	if d := math.Abs(float64(rep.Failures) - mean); d > 4*math.Sqrt(mean) {
		t.Errorf("failures = %d, want %.0f ± %.0f (4σ)", rep.Failures, mean, 4*math.Sqrt(mean))
	}
	// Each cause's count is binomial(n, share): within 4σ too.
	for i, f := range cfg.Mix.Fractions() {
		n := float64(rep.Failures)
		got := float64(rep.ByCause[i].Count)
		if sd := math.Sqrt(n * f * (1 - f)); math.Abs(got-n*f) > 4*sd {
			t.Errorf("%s: %v failures, want %.0f ± %.0f", rep.ByCause[i].Cause, got, n*f, 4*sd)
		}
	}
	// Under checkpoint-restart every lost second but the checkpoints is
	// some failure's doing.
	var blamed units.Time
	for _, c := range rep.ByCause {
		blamed += c.Lost
	}
	if want := rep.Lost.Work + rep.Lost.Detection + rep.Lost.Restart; blamed != want {
		t.Errorf("time lost by cause adds up to %v, want lost work + detection + restart = %v", blamed, want)
	}
	if h := rep.FailuresPerHour; math.Abs(h-0.3233) > 0.03 {
		t.Errorf("failures per hour = %.3f, want ≈ 0.323 (419 in 54 days)", h)
	}
}

// Simulated goodput of checkpoint-restart against Daly's exact expected
// goodput and the first-order closed form, over a two-year run (~5,700
// failures; sampling error ~3e-4).
func TestGoodputMatchesYoungDaly(t *testing.T) {
	cfg := crConfig(t)
	cfg.Duration = 730 * Day
	rc := &cfg.Recovery
	rc.CheckpointCost = 30 * units.Second
	for _, interval := range []units.Time{5 * minute, 15 * minute, 45 * minute} {
		rc.CheckpointInterval = interval
		rep, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		restart := rc.HeartbeatTimeout + rc.RestartCost
		daly := DalyGoodput(interval, rc.CheckpointCost, restart, rep.MTBF)
		first := FirstOrderGoodput(interval, rc.CheckpointCost, restart, rep.MTBF)
		t.Logf("τ = %v: %d failures, goodput %.4f, Daly %.4f, first order %.4f", interval, rep.Failures, rep.Goodput, daly, first)
		if d := math.Abs(rep.Goodput - daly); d > 0.003 {
			t.Errorf("τ = %v: goodput %.4f, Daly's expectation %.4f (|Δ| %.4f > 0.003)", interval, rep.Goodput, daly, d)
		}
		if d := math.Abs(rep.Goodput - first); d > 0.01 {
			t.Errorf("τ = %v: goodput %.4f, first order %.4f (|Δ| %.4f > 0.01)", interval, rep.Goodput, first, d)
		}
	}
}

// The best interval of a sweep sits near Young's √(2·C·MTBF).
func TestSweepOptimumNearYoung(t *testing.T) {
	cfg := crConfig(t)
	cfg.Duration = 730 * Day
	cfg.Recovery.CheckpointCost = 30 * units.Second
	mtbf := NewProcess(cfg.Job.Nodes, cfg.RatePerNodeDay, cfg.Mix, 0).MTBF()
	young := YoungInterval(cfg.Recovery.CheckpointCost, mtbf)
	points, err := Sweep(cfg, Intervals(young, 17))
	if err != nil {
		t.Fatal(err)
	}
	best := Best(points)
	t.Logf("best interval %v (goodput %.4f), Young %v, Daly %v", best.Interval, best.Goodput, young, DalyInterval(cfg.Recovery.CheckpointCost, mtbf))
	if r := best.Interval.Seconds() / young.Seconds(); r < 0.8 || r > 1.25 {
		t.Errorf("best interval %v, Young's %v: ratio %.2f outside 0.8..1.25", best.Interval, young, r)
	}
	for _, p := range points {
		if d := math.Abs(p.Goodput - p.Expected); d > 0.003 {
			t.Errorf("τ = %v: goodput %.4f, Daly %.4f", p.Interval, p.Goodput, p.Expected)
		}
	}
}

func TestRunIsDeterministic(t *testing.T) {
	for _, p := range Policies {
		cfg := crConfig(t)
		cfg.Recovery.Policy = p
		cfg.Job.Replan = func(lost int) (float64, error) { return float64(128-lost) / 128, nil }
		cfg.Duration = 30 * Day
		a, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Run(cfg)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs with seed %d differ:\n%+v\n%+v", p, cfg.Seed, a, b)
		}
		cfg.Seed = 2
		c, _ := Run(cfg)
		if reflect.DeepEqual(a, c) {
			t.Errorf("%s: seeds 1 and 2 gave the same run", p)
		}
		if a.Wall-a.Useful != a.Lost.Total() {
			t.Errorf("%s: wall − useful %v ≠ lost %v", p, a.Wall-a.Useful, a.Lost.Total())
		}
	}
}

func TestRunRejectsBadConfigs(t *testing.T) {
	base := crConfig(t)
	base.Duration = Day
	tests := []struct {
		name string
		edit func(*Config)
	}{
		{"no interval", func(c *Config) { c.Recovery.CheckpointInterval = 0 }},
		{"no horizon", func(c *Config) { c.Duration = 0 }},
		{"negative cost", func(c *Config) { c.Recovery.RestartCost = -1 }},
		{"NaN rate", func(c *Config) { c.RatePerNodeDay = math.NaN() }},
		{"unknown policy", func(c *Config) { c.Recovery.Policy = "pray" }},
		{"elastic without dp", func(c *Config) { c.Recovery.Policy = Elastic; c.Job.Replicas = 1 }},
		{"redundant without pp", func(c *Config) { c.Recovery.Policy = Redundant; c.Job.Stages = 1 }},
		{"replan without a simulator", func(c *Config) { c.Recovery.Policy = Replan }},
		{"replicas not dividing nodes", func(c *Config) { c.Job.Replicas = 3 }},
	}
	for _, tc := range tests {
		cfg := base
		tc.edit(&cfg)
		if _, err := Run(cfg); err == nil {
			t.Errorf("%s: Run accepted it", tc.name)
		}
	}
}

// BenchmarkRun30Days replays 30 days of Llama 3-rate failures on 2,048
// nodes (about 230 failures, 1,400 checkpoints) under each policy: the
// replay itself, without the iteration simulation.
func BenchmarkRun30Days(b *testing.B) {
	m, _ := ParseMix(DefaultMix)
	for _, p := range Policies {
		b.Run(p, func(b *testing.B) {
			cfg := Config{Job: job(), Mix: m, RatePerNodeDay: Llama3RatePerNodeDay, Seed: 1, Duration: 30 * Day,
				Recovery: Recovery{Policy: p, CheckpointInterval: 30 * minute, CheckpointCost: 30 * units.Second,
					RestartCost: 10 * minute, HeartbeatTimeout: 30 * units.Second, ReconfigureCost: minute, RepairTime: 120 * minute}}
			cfg.Job.Replan = func(lost int) (float64, error) { return float64(128-lost) / 128, nil }
			for b.Loop() {
				if _, err := Run(cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
