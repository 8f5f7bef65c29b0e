package scene_test

import (
	"strings"
	"testing"

	"paraplay/sim/scene"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// failAt is the fail-stop's time in the fault scenarios.
func failAt(tl *timeline.Timeline) units.Time {
	for _, r := range tl.Recovery {
		if r.Kind == "fail" {
			return r.Start
		}
	}
	return -1
}

// TestFaultFrames: the failed GPU is grey with a cross from its failure
// on, the slow one hatched with its factor, the peers outlined while they
// hang, the dropped replica grey after detection, and the detector panel
// shows a bar per finished iteration.
func TestFaultFrames(t *testing.T) {
	tl := simulate(t, "faults-elastic.yaml", "")
	fail := failAt(tl)
	if fail < 0 {
		t.Fatal("no failure recorded")
	}
	before := items(scene.Build(tl, fail-units.Millisecond, scene.Options{}))
	if _, ok := before["gpu/6/fault"]; ok {
		t.Error("GPU 6 drawn failed before its failure")
	}
	if it, ok := before["gpu/1/fault/label"]; !ok || it.Text != "×0.4" {
		t.Errorf("slow GPU 1 label = %+v, want ×0.4", it)
	}
	if _, ok := before["gpu/1/fault/hatch/0"]; !ok {
		t.Error("slow GPU 1 is not hatched")
	}
	during := items(scene.Build(tl, fail+units.Millisecond, scene.Options{}))
	for _, id := range []string{"gpu/6/fault", "gpu/6/fault/cross/a", "gpu/6/fault/cross/b"} {
		if _, ok := during[id]; !ok {
			t.Errorf("after the failure: no %s", id)
		}
	}
	if box := during["gpu/0/fault"]; box.Stroke.A == 0 {
		t.Error("GPU 0 is not outlined while it hangs")
	}
	if c := during["caption"].Text; !strings.Contains(c, "GPU 6 stopped") || !strings.Contains(c, "heartbeat") {
		t.Errorf("caption while peers wait = %q", c)
	}
	end := items(scene.Build(tl, tl.End, scene.Options{}))
	if _, ok := end["gpu/7/fault"]; !ok {
		t.Error("GPU 7's replica was dropped but GPU 7 is not greyed")
	}
	if _, ok := end["gpu/7/fault/cross/a"]; ok {
		t.Error("GPU 7 was dropped, not failed: no cross")
	}
	bars := 0
	for id := range end {
		if strings.HasPrefix(id, "detector/bar/") {
			bars++
		}
	}
	if bars != len(tl.Iterations) {
		t.Errorf("%d detector bars at the end, want %d", bars, len(tl.Iterations))
	}
	if p := end["detector/predictor"].Text; !strings.Contains(p, "GPU 1") {
		t.Errorf("predictor verdict %q does not name GPU 1", p)
	}
}

func TestFaultGoldenSVG(t *testing.T) {
	for _, g := range []struct {
		file, scenario string
		frac           float64
	}{
		{"faults_elastic.svg", "faults-elastic.yaml", 0.33},
		{"faults_restart.svg", "faults-restart.yaml", 0.33},
	} {
		tl := simulate(t, g.scenario, "")
		checkGoldenSVG(t, g.file, scene.Build(tl, at(tl, g.frac), scene.Options{}))
	}
}

// TestDescribeFault: the hover text of a failed or slow GPU says so.
func TestDescribeFault(t *testing.T) {
	tl := simulate(t, "faults-elastic.yaml", "")
	fail := failAt(tl)
	if got := scene.Describe(tl, "gpu/6", fail+units.Millisecond); !strings.Contains(got, "fault: failed") {
		t.Errorf("GPU 6 after its failure: %q", got)
	}
	if got := scene.Describe(tl, "gpu/1", units.Millisecond); !strings.Contains(got, "fault: slow (keeps 40% of its speed)") {
		t.Errorf("GPU 1: %q", got)
	}
}
