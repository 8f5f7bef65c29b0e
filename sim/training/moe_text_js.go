//go:build js

package training

import (
	"paraplay/sim/moe"
	"paraplay/sim/parallel"
	"paraplay/sim/timeline"
)

// The browser prints no summary text and keeps no routing record (the
// record is for the summary's lines and --json, moe_record.go): these
// stand in for its code there.

type moeStats struct{}

func (*moeStats) start(int, moe.Layout) {}

func (*moeStats) add(moe.Layer) {}

func (*routed) record(*timeline.Timeline, *iteration) {}

func mergeMoE(_, _ *timeline.Timeline, _ parallel.Plan) {}
