//go:build !js

package nccltest

import (
	"testing"

	"paraplay/sim/strategytest"
)

// TestCaptionCollectives checks each collective's simulated time against
// its α–β formula on the links it ran on: ideal links, where the formula
// is the textbook one, and a two-node H100 cluster, where the
// hierarchical all-reduce is priced on each level's own links.
func TestCaptionCollectives(t *testing.T) {
	for _, tt := range []struct{ name, yaml string }{
		{"ring", "strategy: collective\ngpus: 8\ncollective: {size: 256MiB}"},
		{"ring latency-bound", "strategy: collective\ngpus: 8\nlink: {latency: 10us}\ncollective: {size: 64KiB}"},
		{"tree", "strategy: collective\ngpus: 16\ncollective: {algorithm: tree, size: 64KiB}"},
		{"halving-doubling", "strategy: collective\ngpus: 16\ncollective: {algorithm: halving_doubling, size: 1MiB}"},
		{"hierarchical h100", "strategy: collective\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4}\ncollective: {algorithm: hierarchical, size: 256MiB}"},
		{"nvls h100", "strategy: collective\ncluster: {gpu: h100-sxm, gpus_per_node: 8}\ncollective: {algorithm: nvls, size: 1GiB}"},
		{"collnet a100", "strategy: collective\ncluster: {gpu: a100-sxm-80gb, nodes: 2, gpus_per_node: 8, inter: ib-hdr}\ncollective: {algorithm: collnet, size: 256MiB}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parts, _, _ := strategytest.Caption(t, Strategy{}, tt.yaml)
			strategytest.Checked(t, parts, "collective time")
			strategytest.Figure(t, parts, "busbw {}")
		})
	}
}
