package training

import (
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// The memory reserve: what a training process holds beside its tensors.
// The GPU type fixes the CUDA context and the cuBLAS workspaces
// (hw.GPU.Reserve); the plan fixes how many NCCL communicators the process
// opens, each with its own buffers and its own stream, whose cached
// allocator segments no other stream reuses. No figure depends on the
// model: the reserve is a few hundred MiB per communicator and under a
// GiB of context, and fragmentation proper, which is workload-dependent,
// is what the summary's over-90%-of-HBM warning is for
// (timeline.NearFraction).

// ncclConnectionBytes is one NCCL connection's receive buffers, one per
// protocol, at NCCL's defaults (src/init.cc and src/include/device.h of
// NVIDIA/nccl, read in the code corpus): Simple DEFAULT_BUFFSIZE = 1<<22
// (4 MiB, the documented NCCL_BUFFSIZE default), LL128
// NCCL_LL128_ELEMS_PER_THREAD × NCCL_LL128_MAX_NTHREADS × NCCL_STEPS × 8 B
// = 120 × 640 × 8 × 8 = 4,915,200 B, and LL NCCL_LL_LINES_PER_THREAD ×
// NCCL_LL_MAX_NTHREADS × NCCL_STEPS × 16 B = 8 × 512 × 8 × 16 = 524,288 B.
const ncclConnectionBytes = 4<<20 + 120*640*8*8 + 8*512*8*16

// ncclChannels is the channels of a communicator, each with one ring
// connection whose buffers the rank receives into. UNCONFIRMED as a
// general figure: 16 is what NCCL's log prints for a 24-rank H100
// communicator ("Channel 00/16", NVIDIA/nccl issue #1453); NCCL opens up
// to 32 (issue #1685 saw 32 per peer for an all-to-all on 8 × H100), and
// its maintainer says the memory is linear in the channels (issue #986).
// Tree, NVLS and all-to-all connections are left out, so the figure is
// a floor: NVIDIA/nccl issue #964 measured 544–688 MB per communicator
// on 4 × A100.
const ncclChannels = 16

// ncclCommunicatorBytes is one communicator's buffers: 16 × 9.19 MiB =
// 147 MiB.
const ncclCommunicatorBytes = ncclChannels * ncclConnectionBytes

// allocatorStreamBytes is what PyTorch's caching allocator keeps per
// stream that no tensor of another stream can use: one 20 MiB segment for
// requests of 1–10 MiB (kLargeBuffer) and one 2 MiB segment for requests
// of at most 1 MiB (kSmallBuffer), the constants of
// c10/cuda/CUDACachingAllocator.cpp.
const allocatorStreamBytes = 20<<20 + 2<<20

// communicators counts the NCCL communicators a rank of plan p opens: one
// per parallel dimension wider than one (the pipeline's point-to-point
// messages go through a communicator too; ZeRO's collectives use the
// data-parallel one).
func communicators(p scenario.Parallel) int {
	n := 0
	for _, d := range []int{p.DP, p.TP, p.PP, p.CP, p.EP} {
		if d > 1 {
			n++
		}
	}
	return n
}

// reserveOf is the memory reserve of a GPU of type g under plan p.
func reserveOf(g hw.GPU, p scenario.Parallel) timeline.Reserve {
	return reserveFor(g, communicators(p))
}

// reserveFor is the memory reserve of a GPU of type g with comms NCCL
// communicators.
func reserveFor(g hw.GPU, comms int) timeline.Reserve {
	dev := g.Reserve()
	return timeline.Reserve{
		Context:       dev.Context,
		Workspaces:    dev.CuBLAS,
		Communicators: units.Bytes(comms) * ncclCommunicatorBytes,
		// The compute stream and one stream per communicator.
		Allocator: units.Bytes(1+comms) * allocatorStreamBytes,
	}
}
