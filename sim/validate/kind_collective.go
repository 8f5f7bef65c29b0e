package validate

import (
	"fmt"
	"strconv"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/nccltest"
	"paraplay/sim/taskgraph"
	"paraplay/sim/units"
)

// collectiveKind runs one collective as paraplay collective does and
// reports its bus bandwidth in GB/s, the busbw column of nccl-tests
// (NVIDIA/nccl-tests doc/PERFORMANCE.md: algbw × 2(n−1)/n for all-reduce).
func collectiveKind() Kind {
	return Kind{
		Name:     "nccl-tests-busbw",
		What:     "one collective on a cluster preset, every message simulated (NVLS: its closed form); nccl-tests' busbw in GB/s",
		Required: []string{"gpu", "op", "algo", "size"},
		Optional: []string{"nodes", "gpus_per_node", "inter", "channels"},
		Simulate: simulateCollective,
	}
}

func simulateCollective(config map[string]string) (float64, error) {
	spec := cluster.Spec{GPU: config["gpu"], Inter: config["inter"]}
	var err error
	if spec.Nodes, err = optionalInt(config, "nodes", 1, 64); err != nil {
		return 0, err
	}
	if spec.PerNode, err = optionalInt(config, "gpus_per_node", 1, 72); err != nil {
		return 0, err
	}
	size, err := units.ParseBytes(config["size"])
	if err != nil || size < 1 || size > 64*units.GiB {
		return 0, fmt.Errorf("config.size: %q; want bytes such as 8GiB, 1B..64GiB", config["size"])
	}
	built, err := cluster.Build(spec)
	if err != nil {
		return 0, fmt.Errorf("config: %w", err)
	}
	n := len(built.Topology.GPUs)
	channels, err := optionalInt(config, "channels", 1, collective.MaxChannels)
	if err != nil {
		return 0, err
	}
	// channels absent: NCCL's default, one ring per NIC across nodes.
	cfg := collective.Config{Ranks: n, Nodes: built.Spec.Nodes, PerNode: built.Spec.PerNode, Bytes: size, Chunks: 1, Channels: channels}
	// NVLS is on offer where the node's switch reduces (nccltest.NVLSCapable);
	// it runs at analytic fidelity, having no point-to-point schedule.
	o := nccltest.Options{NVLS: nccltest.NVLSCapable(built.Spec.Intra)}
	m, _, err := nccltest.MeasureWith(built.Topology, config["op"], config["algo"], o, cfg, taskgraph.Detailed)
	if err != nil {
		return 0, fmt.Errorf("config: %w", err)
	}
	return float64(m.BusBW) / 1e9, nil
}

// optionalInt reads config[key] as an integer in lo..hi; absent is 0 (the
// cluster's default).
func optionalInt(config map[string]string, key string, lo, hi int) (int, error) {
	v, ok := config[key]
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("config.%s: %q; want an integer %d..%d", key, v, lo, hi)
	}
	return n, nil
}
