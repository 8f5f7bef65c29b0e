package scene_test

import (
	"reflect"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/run"
	"paraplay/sim/scene"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// TestFramesMatchBuild checks that what Frames remembers between frames
// (the strip, the reused item storage) never changes a frame: every frame
// equals a fresh Build, across instants, sizes, themes and presenter mode,
// and a dark frame leaves no trace in the light one after it.
func TestFramesMatchBuild(t *testing.T) {
	for name, tl := range map[string]*timeline.Timeline{
		"cluster":  clusterRun(t, cluster.Spec{Nodes: 2, PerNode: 4}, "ring", run.Detailed),
		"training": simulate(t, "llama3-8b-2x8.yaml", ""),
	} {
		f := scene.NewFrames(tl)
		var reused scene.DrawList
		opts := []scene.Options{
			{},
			{Width: 1280, Height: 800},
			{Width: 1280, Height: 800, Theme: scene.ThemeDark},
			{Width: 1280, Height: 800},
			{Width: 1280, Height: 800, Present: true},
			{Width: 1280, Height: 800},
			{Width: 700, Height: 500, View: scene.ViewTimeline},
		}
		for i, opt := range opts {
			for _, at := range []units.Time{0, tl.End / 3, tl.End} {
				want := scene.Build(tl, at, opt)
				if got := f.Build(at, opt); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: Frames.Build(%v, opts[%d]) differs from Build", name, at, i)
				}
				f.BuildInto(&reused, at, opt)
				if !reflect.DeepEqual(reused, want) {
					t.Errorf("%s: Frames.BuildInto(%v, opts[%d]) differs from Build", name, at, i)
				}
			}
		}
	}
}
