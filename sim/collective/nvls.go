package collective

import "paraplay/sim/units"

// NVLSTime is the time of NCCL's NVLS all-reduce on one node of n GPUs
// behind an NVSwitch that reduces and multicasts (NVLink SHARP: NVSwitch
// generation 3, H100 and later; NCCL 2.17 and later), each GPU on a
// full-duplex link of per-message latency l.Alpha and bandwidth
// l.Bandwidth per direction. NVLS has no point-to-point schedule: the
// switch itself is a party to every transfer.
//
// NCCL runs it as a reduce-scatter and an all-gather through the switch
// (NVIDIA/nccl src/device/all_reduce.h, its NVLS kernel, read at commit
// 0e35f5d: warps that reduce through the multicast address and store
// the sum back through it). In the first, GPU j asks the
// switch for the sum of shard j (S/n bytes): the switch reads shard j from
// every GPU, its own included, adds, and returns one copy to j; over all
// shards each GPU's link sends S and receives S/n. In the second, GPU j
// writes its summed shard once and the switch copies it to every GPU: each
// link sends S/n and receives S. NCCL pipelines the two over chunks, so
// both directions of every link are busy at once, each carrying (1 + 1/n)·S:
//
//	2α + (n+1)/n · S/B   (one latency per phase)
//
// algorithm bandwidth n/(n+1)·B, and nccl-tests' bus bandwidth
// 2(n−1)/(n+1)·B: 1.56·B on 8 GPUs, against the ring's B. The switch's
// adders are assumed never to be the bottleneck. Left out: without
// registered user buffers the same kernel also copies the data into
// NCCL's NVLS buffers and back (its scatter and gather warps), traffic
// this form does not count — the likely reason it overestimates the
// measured 8 × H100 figure (nccltest's NVLS test gives the error).
func NVLSTime(n int, s units.Bytes, l Link) float64 {
	if n < 2 {
		return 0
	}
	nf := float64(n)
	return 2*l.Alpha.Seconds() + (nf+1)/nf*float64(s)/float64(l.Bandwidth)
}

// NVLSLinkBytes is what NVLSTime's all-reduce moves over each GPU's link
// to the switch, in each direction: (n+1)/n·S (its shards up and its sum
// down in the reduce-scatter, its sum up and the others' down in the
// all-gather). The picture draws the links' load from it.
func NVLSLinkBytes(n int, s units.Bytes) float64 {
	if n < 2 {
		return 0
	}
	return float64(n+1) / float64(n) * float64(s)
}
