//go:build !js

package kineto_test

import (
	"bytes"
	"strings"
	"testing"

	"paraplay/sim/kineto"
	"paraplay/sim/kineto/kinetotest"
	"paraplay/sim/scene"
	"paraplay/sim/timeline"
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

// TestSceneColoursKernelsByClass draws the shared NCCL trace: the legend
// names the kernel classes it has with their swatches, and a GPU running
// an elementwise kernel, a GEMM or a copy is filled with its class's swatch.
func TestSceneColoursKernelsByClass(t *testing.T) {
	tl, err := kineto.Timeline([]*kineto.Trace{kinetotest.Read(t, "kineto-nccl-2rank-rank0.json.gz")})
	if err != nil {
		t.Fatal(err)
	}
	item := func(dl *scene.DrawList, id string) *scene.Item {
		for i := range dl.Items {
			if dl.Items[i].ID == id {
				return &dl.Items[i]
			}
		}
		return nil
	}
	dl := scene.Build(tl, 0, scene.Options{Width: 1280, Height: 800})
	for key, label := range map[string]string{"gemm": "GEMM, conv", "elementwise": "elementwise/norm", "memcpy": "copy/set", "communication": "communication", "kernel": "other kernel"} {
		if it := item(&dl, "legend/"+key+"/label"); it == nil || it.Text != label {
			t.Errorf("legend entry %s: %+v, want the label %q", key, it, label)
		}
	}
	seen := map[timeline.Kind]bool{}
	for _, s := range tl.Spans {
		kind := s.Kind
		if kind == timeline.Memset {
			kind = timeline.Memcpy
		}
		if s.GPU != 0 || seen[kind] || s.End-s.Start < 2 {
			continue
		}
		seen[kind] = true
		at := s.Start + (s.End-s.Start)/2
		dl := scene.Build(tl, at, scene.Options{Width: 1280, Height: 800})
		box, swatch := item(&dl, "gpu/0"), item(&dl, "legend/"+string(kind)+"/swatch")
		if box == nil || swatch == nil || box.Fill != swatch.Fill {
			t.Errorf("a %s kernel at %v: the GPU's box %+v, want the fill of its swatch %+v", kind, at, box, swatch)
		}
	}
	if len(seen) < 4 {
		t.Errorf("checked %d classes, want gemm, elementwise, copy and other", len(seen))
	}
}
