package fault

import (
	"testing"

	"paraplay/sim/units"
)

// The phases account for every nanosecond of the run, and their sums per
// kind are the report's own totals: the app draws the phases, so what it
// shows adds up to the numbers it prints.
func TestPhasesAddUpToTheReport(t *testing.T) {
	for _, policy := range Policies {
		t.Run(policy, func(t *testing.T) {
			cfg := crConfig(t)
			cfg.Recovery.Policy = policy
			cfg.Job.Replan = func(lost int) (float64, error) { return 1 - 0.01*float64(lost), nil }
			cfg.RatePerNodeDay = 30 * Llama3RatePerNodeDay // a failure every ~6 min
			cfg.Duration = 2 * 24 * 60 * minute
			rep, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Hits) != rep.Failures {
				t.Fatalf("got %d hits, want the %d failures", len(rep.Hits), rep.Failures)
			}
			sum := map[string]units.Time{}
			var useful, lostUseful, degraded, lostHits units.Time
			at := units.Time(0)
			for i, p := range rep.Phases {
				if p.Start != at || p.End <= p.Start && p.Useful == 0 {
					t.Fatalf("phase %d %+v: want it to start at %v and not be empty", i, p, at)
				}
				at = p.End
				sum[p.Kind] += p.End - p.Start
				switch p.Kind {
				case PhaseTrain:
					useful += p.Useful
					degraded += p.End - p.Start - p.Useful
				case PhaseLost:
					lostUseful += p.Useful
					degraded += p.End - p.Start - p.Useful
				}
			}
			for _, h := range rep.Hits {
				lostHits += h.LostWork
			}
			l := rep.Lost
			for _, c := range []struct {
				name      string
				got, want units.Time
			}{
				{"end of the last phase", at, rep.Wall},
				{"useful work of train phases", useful, rep.Useful},
				{"work of lost phases", lostUseful, l.Work},
				{"lost work of the hits", lostHits, l.Work},
				{"degraded time of train and lost phases", degraded, l.Degraded},
				{"detection phases", sum[PhaseDetection], l.Detection},
				{"restart phases", sum[PhaseRestart], l.Restart},
				{"checkpoint phases", sum[PhaseCheckpoint], l.Checkpoint},
				{"reconfigure phases", sum[PhaseReconfigure], l.Reconfigure},
			} {
				if c.got != c.want {
					t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
				}
			}
			if rep.Failures == 0 {
				t.Errorf("no failures: the test checks nothing about recovery")
			}
		})
	}
}

// A lone failure while training under checkpoint-restart: the phases are
// train, checkpoint, train (its tail lost), detection, restart, train.
func TestPhasesOfOneFailure(t *testing.T) {
	cfg := crConfig(t)
	cfg.Work = 30 * minute
	rep, err := Replay(cfg, []Failure{{At: 14 * minute, Node: 5, Cause: "gpu"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Phase{
		{PhaseTrain, 0, 10 * minute, 10 * minute, ""},
		{PhaseCheckpoint, 10 * minute, 11 * minute, 0, ""},
		{PhaseLost, 11 * minute, 14 * minute, 3 * minute, ""},
		{PhaseDetection, 14 * minute, 14*minute + 30*units.Second, 0, "gpu"},
		{PhaseRestart, 14*minute + 30*units.Second, 19*minute + 30*units.Second, 0, "gpu"},
	}
	for i, w := range want {
		if i >= len(rep.Phases) || rep.Phases[i] != w {
			t.Fatalf("phase %d: got %+v, want %+v (all: %+v)", i, rep.Phases[i:], w, rep.Phases)
		}
	}
	if h := rep.Hits; len(h) != 1 || h[0].LostWork != 3*minute || h[0].Node != 5 {
		t.Errorf("hits: got %+v, want one on node 5 losing 3m", h)
	}
}
