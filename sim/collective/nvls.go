package collective

import "paraplay/sim/units"

// NVLSTime is the time of NCCL's NVLS all-reduce on one node of n GPUs
// behind an NVSwitch that reduces and multicasts (NVLink SHARP: NVSwitch
// generation 3, H100 and later; NCCL 2.17 and later), each GPU on a
// full-duplex link of per-message latency l.Alpha and payload bandwidth
// l.Bandwidth per direction — the rate NCCL's ring reaches, whose data
// moves as 128-byte writes. NVLS has no point-to-point schedule: the
// switch itself is a party to every transfer.
//
// NCCL runs it as a reduce-scatter and an all-gather through the switch
// (NVIDIA/nccl src/device/all_reduce.h, its NVLS kernel: warps that load
// through the multicast address with multimem.ld_reduce and store the sum
// back through it with multimem.st). In the first, GPU j asks the switch
// for the sum of shard j (S/n bytes): the switch reads shard j from every
// GPU, its own included, adds, and returns one copy to j; over all shards
// each GPU's link sends S and receives S/n. In the second, GPU j writes
// its summed shard once and the switch copies it to every GPU: each link
// sends S/n and receives S. NCCL pipelines the two over chunks, so both
// directions of every link are busy at once, each carrying (1 + 1/n)·S of
// payload (NCCL's maintainer gives the same counts, NVIDIA/nccl issue
// #1083; a user's link counters show the requester's own shard crossing
// its link too, NVIDIA developer forum thread 356726).
//
// What the payload count leaves out is how it travels. NVLink moves
// packets of 16-byte flits, and every packet has a one-flit header: a
// 128-byte write is 1 + 8 flits, so headers are 1/8 of the payload (Nsight's
// NVLink counters on a Hopper GPU running NCCL: "Request Protocol Data"
// 1/8 of "User Data", NVIDIA/nccl issue #1397). The ring moves everything
// as such writes, so its calibrated rate B already pays them. NVLS also
// moves data by reads: to reduce, the switch fetches every byte of every
// GPU's buffer, and each 128-byte fetch is a header-only read request
// travelling into the GPU — on the direction that already carries the
// multicast writes and the reduced shard. That adds one flit per eight of
// S to the busier direction, (1/8)/(1 + 1/8) = 1/9 of S at the payload
// rate B:
//
//	2α + ((n+1)/n + 1/9) · S/B   (one latency per phase)
//
// nccl-tests' bus bandwidth is then 2(n−1)/n · B/((n+1)/n + 1/9): 1.42·B on
// 8 GPUs (1.56·B without the requests), against the ring's B. The read
// size (one 128-byte line per request, the SM's largest NVLink payload:
// NCCL maintainer, NVIDIA/nccl-tests issue #149) and the one-flit request
// are taken from the write path; NVLink 4's read packets are not
// published (UNCONFIRMED). The switch's adders are assumed never to be
// the bottleneck: an NVSwitch's reduction rate would make the bandwidth
// fall with n, and the measured NVLS bus bandwidth rises with n as the
// link count says (NVIDIA/nccl issue #1455).
func NVLSTime(n int, s units.Bytes, l Link) float64 {
	if n < 2 {
		return 0
	}
	nf := float64(n)
	return 2*l.Alpha.Seconds() + ((nf+1)/nf+NVLSReadRequestShare)*float64(s)/float64(l.Bandwidth)
}

// NVLSReadRequestShare is the read requests NVLS adds to a link's busier
// direction, per byte of the buffer, at the link's payload rate: one
// 16-byte request header per 128-byte read, against the 16-byte header
// the ring's 128-byte writes already pay, (16/128)/(1 + 16/128) = 1/9
// (NVLSTime).
const NVLSReadRequestShare = (16.0 / 128) / (1 + 16.0/128)

// NVLSGatherScatterTime is the time of NCCL's NVLS all-gather or
// reduce-scatter of S bytes (the gathered buffer, or each rank's input)
// on one node of n GPUs, on the links of NVLSTime. All-gather: each GPU
// stores its shard once through the multicast address and the switch
// writes every shard to every GPU, its own included, so a link receives
// S and sends S/n. Reduce-scatter: GPU j loads the sum of shard j through
// the multicast address, so the switch reads every byte of every GPU's
// buffer once: a link sends S (read responses, a header per 128 bytes
// like a write's) and receives S/n of sums plus the read requests, 1/9 of
// S at the payload rate (NVLSTime). Either way the busier direction
// carries S at the rate B:
//
//	α + S/B
//
// nccl-tests' bus bandwidth is then (n−1)/n·B, below the ring's B: NVLS
// brings these operations no bandwidth, only fewer steps (NCCL's
// maintainer on the same counts, NVIDIA/nccl issues #1083 and #1506).
func NVLSGatherScatterTime(n int, s units.Bytes, l Link) float64 {
	if n < 2 {
		return 0
	}
	return l.Alpha.Seconds() + float64(s)/float64(l.Bandwidth)
}

// NVLSLinkBytes is what NVLSTime's all-reduce moves over each GPU's link
// to the switch, in payload-rate bytes: up, (n+1)/n·S (its shards in the
// reduce-scatter, its sum in the all-gather); down, the same payload (its
// sum, then the others' sums) and the switch's read requests,
// NVLSReadRequestShare·S. The picture draws the links' load from it.
func NVLSLinkBytes(n int, s units.Bytes) (up, down float64) {
	if n < 2 {
		return 0, 0
	}
	up = float64(n+1) / float64(n) * float64(s)
	return up, up + NVLSReadRequestShare*float64(s)
}
