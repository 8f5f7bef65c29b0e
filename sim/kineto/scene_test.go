//go:build !js

package kineto_test

import (
	"bytes"
	"strings"
	"testing"

	"paraplay/sim/kineto"
	"paraplay/sim/kineto/kinetotest"
	"paraplay/sim/scene"
	"paraplay/sim/units"
)

// TestSceneDrawsMeasuredRun draws the imported shared traces at a few
// instants and describes a GPU: the scene takes a measured run as it
// takes a simulated one (phase 2 animates it in the browser).
func TestSceneDrawsMeasuredRun(t *testing.T) {
	a := kinetotest.Read(t, "kineto-a100-128rank-rank0.json.gz")
	b := kinetotest.Read(t, "kineto-a100-128rank-rank1.json.gz")
	tl, err := kineto.Timeline([]*kineto.Trace{a, b})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []units.Time{0, tl.End / 3, tl.End} {
		dl := scene.Build(tl, at, scene.Options{Width: 800, Height: 450})
		var svg bytes.Buffer
		if err := scene.WriteSVG(&svg, dl); err != nil || svg.Len() == 0 {
			t.Fatalf("at %v: SVG %d bytes, %v", at, svg.Len(), err)
		}
	}
	if d := scene.Describe(tl, "gpu/1", tl.End/2); !strings.Contains(d, "rank 1") {
		t.Errorf("GPU 1 described as %q, want it to name rank 1", d)
	}
}
