package scene_test

import (
	"strings"
	"testing"

	"paraplay/sim/scene"
	"paraplay/sim/units"
)

func TestAsyncGoldenSVG(t *testing.T) {
	for _, g := range []struct {
		file, scenario string
		at             units.Time
	}{
		{"ps_ssp.svg", "ps-ssp.yaml", 60500 * units.Microsecond},
		{"local_sgd_dreamddp.svg", "local-sgd-dreamddp.yaml", 20 * units.Millisecond},
	} {
		tl := simulate(t, g.scenario, "")
		checkGoldenSVG(t, g.file, scene.Build(tl, g.at, scene.Options{}))
	}
}

// Every worker of a parameter-server run carries a badge with its version
// lag at t, the one the run recorded, and the server is named and drawn
// as a host.
func TestAsyncBadges(t *testing.T) {
	tl := simulate(t, "ps-ssp.yaml", "")
	a := tl.Async
	for _, it := range a.Iterations {
		m := items(scene.Build(tl, it.Start, scene.Options{}))
		label, ok := m["gpu/"+itoa(a.Workers[it.Worker])+"/lag/label"]
		if !ok {
			t.Fatalf("no lag badge on worker %d at %v", it.Worker, it.Start)
		}
		if want := "lag " + itoa(it.Lag) + "/2"; !strings.HasSuffix(label.Text, want) {
			t.Errorf("worker %d at %v: badge %q, want it to end in %q", it.Worker, it.Start, label.Text, want)
		}
		if _, ok := m["gpu/4/lag"]; ok {
			t.Fatalf("the parameter server carries a lag badge")
		}
		if n := m["node/1/label"]; n.Text != "parameter servers" {
			t.Fatalf("node 1 is labelled %q", n.Text)
		}
	}
	m := items(scene.Build(tl, 0, scene.Options{}))
	if c := m["caption"]; !strings.HasPrefix(c.Text, "SSP, s = 2") {
		t.Errorf("caption %q", c.Text)
	}
	if b := m["gpu/3/lag/label"]; !strings.HasPrefix(b.Text, "×0.25") {
		t.Errorf("the slow worker's badge %q does not give its speed", b.Text)
	}
}
