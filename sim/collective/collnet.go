package collective

import (
	"math"

	"paraplay/sim/units"
)

// CollNetTime is the time of NCCL's CollNet all-reduce over nodes × g
// GPUs whose network switches reduce (IB SHARP), each GPU with an intra
// link and a NIC of its own on a rail whose leaf switch adds. It is the
// CollNet "direct" shape of NCCL (src/device/all_reduce.h, the CollNet
// kernels, read for their structure): inside each node a reduce-scatter
// leaves GPU l with the node's sum of shard l (S/g bytes); GPU l sends
// its shard once through its NIC, the switches add the nodes' shards and
// send the total back; an all-gather inside the node gives every GPU the
// whole sum. NCCL pipelines the three over chunks, so the slowest stage
// sets the pace, and each stage's latency is paid once:
//
//	2(g−1)·α_intra + 2·α_net + max(2(g−1)/g · S/B_intra, S/(g·B_nic))
//
// The intra stages are ring reduce-scatter and all-gather (Patarasuk &
// Yuan 2009), which share the intra links, hence 2(g−1)/g. Each NIC
// carries S/g once each way, not the ring's 2(N−1)/N·S/g: the network
// term no longer grows with the node count, and nccl-tests' bus bandwidth
// across nodes can pass g·B_nic. The switches' adders and the aggregation
// tree above the leaves are assumed never to be the bottleneck.
func CollNetTime(nodes, g int, s units.Bytes, intra, nic Link) float64 {
	if nodes*g < 2 {
		return 0
	}
	gf, S := float64(g), float64(s)
	lat := 2 * nic.Alpha.Seconds()
	bw := S / (gf * float64(nic.Bandwidth))
	if g > 1 {
		lat += 2 * (gf - 1) * intra.Alpha.Seconds()
		bw = math.Max(bw, 2*(gf-1)/gf*S/float64(intra.Bandwidth))
	}
	return lat + bw
}

// CollNetLinkBytes is what CollNetTime's all-reduce moves over each GPU's
// links in each direction: 2(g−1)/g·S over its link inside the node (the
// ring reduce-scatter and all-gather) and S/g through its NIC (its shard
// up to the leaf, the total back). The picture draws the links' load from it.
func CollNetLinkBytes(g int, s units.Bytes) (intra, nic float64) {
	gf, S := float64(max(g, 1)), float64(s)
	return 2 * (gf - 1) / gf * S, S / gf
}
