package scene_test

import (
	"strings"
	"testing"

	"paraplay/sim/scene"
	"paraplay/sim/units"
)

func TestRLHFGoldenSVG(t *testing.T) {
	tl := simulate(t, "rlhf-async.yaml", "")
	checkGoldenSVG(t, "rlhf_async.svg", scene.Build(tl, 14*units.Second, scene.Options{}))
}

// The scene of a disaggregated run names its pools, says which model each
// GPU runs, and fills as many queue slots as the run's queue holds at t.
func TestRLHFPoolsAndQueue(t *testing.T) {
	tl := simulate(t, "rlhf-async.yaml", "")
	r := tl.RLHF
	seen := map[int]bool{}
	for _, st := range r.Steps {
		for _, at := range []units.Time{st.GenStart + 1, st.TrainStart + 1, st.TrainEnd - 1} {
			m := items(scene.Build(tl, at, scene.Options{}))
			depth := r.QueueAt(at)
			seen[depth] = true
			if depth < r.QueueCapacity {
				empty := m["rlhf/queue/"+itoa(r.QueueCapacity-1)].Fill
				filled := 0
				for k := range r.QueueCapacity {
					if m["rlhf/queue/"+itoa(k)].Fill != empty {
						filled++
					}
				}
				if filled != depth {
					t.Errorf("at %v: %d queue slots filled, want the depth %d", at, filled, depth)
				}
			}
			label := m["rlhf/queue/label"].Text
			if want := "rollout queue " + itoa(depth) + "/" + itoa(r.QueueCapacity); label != want {
				t.Errorf("at %v: queue label %q, want %q", at, label, want)
			}
		}
	}
	if !seen[r.MaxQueue()] || r.MaxQueue() == 0 {
		t.Errorf("the checked instants never showed the queue's peak %d (saw %v)", r.MaxQueue(), seen)
	}
	st := r.Steps[1]
	m := items(scene.Build(tl, st.GenStart+1, scene.Options{}))
	if got := m["gpu/0/state"].Text; got != "actor gen" {
		t.Errorf("generating GPU 0 says %q, want %q", got, "actor gen")
	}
	if got := m["node/0/label"].Text; !strings.HasPrefix(got, "generation pool · 4× h20") {
		t.Errorf("pool 0 is labelled %q", got)
	}
	if got := m["node/1/label"].Text; !strings.HasPrefix(got, "training pool · 4× h100-sxm") {
		t.Errorf("pool 1 is labelled %q", got)
	}
}
