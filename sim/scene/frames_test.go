package scene_test

import (
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/scene"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// TestFramesMatchBuild checks that what Frames remembers between frames
// (the strip, the layouts, the IDs, the reused item storage) never changes
// a frame: every frame
// equals a fresh Build, across instants, sizes, themes and presenter mode,
// and a dark frame leaves no trace in the light one after it.
func TestFramesMatchBuild(t *testing.T) {
	for name, tl := range map[string]*timeline.Timeline{
		"cluster":  clusterRun(t, cluster.Spec{Nodes: 2, PerNode: 4}, "ring", taskgraph.Detailed),
		"training": simulate(t, "llama3-8b-2x8.yaml", ""),
		"ring":     queryRun(t, "strategy=collective&gpus=8&size=64MiB"),
		// 512 GPUs: cables drawn as pairs; 1,024: each node's GPUs as one bar.
		"cluster 64x8":  queryRun(t, "strategy=collective&gpu=h100-sxm&nodes=64&gpus_per_node=8&size=256MiB"),
		"cluster 128x8": clusterRun(t, cluster.Spec{Nodes: 128, PerNode: 8}, "ring", taskgraph.Analytic),
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

// TestSteadyFramesAllocateLittle plays the benchmark's runs at the
// playground's pace (scene.PlaybackRate, 30 frames a second) into one draw
// list, as the browser does, and replays the same frames as a loop would.
// A replayed frame may allocate only the texts that change as the clock
// runs (the time in the header, the step caption), and the IDs of the
// packets new since the last two frames when a run has too many transfers
// to keep every packet's ID. Before the layouts and IDs were kept, a frame
// allocated 753 times at 64 GPUs and 8,021 times at 512.
func TestSteadyFramesAllocateLittle(t *testing.T) {
	const changingTexts = 8
	for _, q := range []string{
		"strategy=collective&gpus=64&size=256MiB",
		"strategy=collective&gpu=h100-sxm&nodes=8&gpus_per_node=8&size=256MiB",
		"gpus=64",
		"strategy=collective&gpu=h100-sxm&nodes=64&gpus_per_node=8&size=256MiB",
		"strategy=collective&gpu=h100-sxm&gpus_per_node=8&algo=nvls&size=256MiB",
		"strategy=collective&gpu=a100-sxm-80gb&nodes=8&gpus_per_node=8&inter=ib-hdr&algo=collnet&size=256MiB",
	} {
		tl := queryRun(t, q)
		f := scene.NewFrames(tl)
		step := units.Time(float64(scene.PlaybackRate(tl.End)) / 30)
		opt := scene.Options{Width: 1280, Height: 800}
		start := tl.End / 3
		const frames = 60
		// New packets per frame: xfer items not drawn in the two frames
		// before, counted on draw lists of their own.
		var seen [2]map[string]bool
		fresh, count := 0, scene.NewFrames(tl)
		for k := range frames {
			dl := count.Build(start+units.Time(k)*step, opt)
			now := map[string]bool{}
			for _, it := range dl.Items {
				if strings.HasPrefix(it.ID, "xfer/") {
					now[it.ID] = true
					if k > 0 && !seen[0][it.ID] && !seen[1][it.ID] {
						fresh++
					}
				}
			}
			seen[0], seen[1] = now, seen[0]
		}
		var dl scene.DrawList
		for k := range frames {
			f.BuildInto(&dl, start+units.Time(k)*step, opt)
		}
		k := 0
		got := testing.AllocsPerRun(frames-1, func() {
			f.BuildInto(&dl, start+units.Time(k)*step, opt)
			k++
		})
		limit := float64(changingTexts)
		if tl.Transfers.Len() > 1<<16 {
			// Packet IDs are kept for two frames only: one string per new
			// packet, with room for the kept lists' growth.
			limit += 1.25 * float64(fresh) / frames
		}
		if got > limit {
			t.Errorf("%s: %.0f allocations per replayed frame, want at most %.0f", q, got, limit)
		}
		t.Logf("%s: %.0f allocations per frame (limit %.0f)", q, got, limit)
	}
}
