//go:build !js

package swarm

import (
	"testing"

	"paraplay/sim/strategytest"
)

// TestCaptions: the demos' captions hold their closed forms: the swarm's
// rate against min over stages of summed peer speed, and, with skipped
// stages, the stages each microbatch computed against S − k.
func TestCaptions(t *testing.T) {
	parts, _, _ := strategytest.Caption(t, Strategy{}, `strategy: swarm
gpus: 8
link: {bandwidth: 25MB/s, latency: 50ms}
compute: {forward: 200ms, backward: 400ms}
sync: {speeds: "2,1,1,1,2,1,0.5,0.5"}
swarm: {stages: 4, microbatches: 600, rebalance: 5s, activation: 2MiB, stage_bytes: 128MiB}
faults: [{kind: fail_stop, at: 60s, gpu: 5}]
`)
	strategytest.Checked(t, parts, "swarm rate")
	if !strategytest.Unchecked(parts, "skipped work") {
		t.Error("a run without skipping checks skipped work")
	}
	parts, _, _ = strategytest.Caption(t, Strategy{}, `strategy: swarm
gpus: 18
link: {bandwidth: 25MB/s, latency: 50ms}
compute: {forward: 200ms, backward: 400ms}
swarm: {stages: 8, skip: 4, microbatches: 600, rebalance: 5s, activation: 2MiB, stage_bytes: 128MiB}
`)
	strategytest.Checked(t, parts, "swarm rate")
	strategytest.Checked(t, parts, "skipped work")
}
