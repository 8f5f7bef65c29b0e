package training

import (
	"strconv"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// Hierarchical ZeRO (parallel.zero_group: g). The ZeRO stage shards the
// model states within groups of g consecutive data-parallel replicas and
// keeps a replica of them in each of the R = dp/g groups: PyTorch FSDP's
// hybrid sharding (Zhao et al. 2023, §3), ZeRO++'s hierarchical
// partitioning hpZ (Wang et al. 2023, which keeps it for the parameters
// only) and AsyncHZP (Bai et al. 2025, which reshards parameters,
// gradients and optimizer states across replica groups). With g = a
// server's GPUs every gather stays on the server's links.
//
// Per GPU, with Ψ the parameters of its pipeline device (memory.go), the
// model states become ZeRO's with N_d = g:
//
//	ZeRO-1  2Ψ + 2Ψ + 12Ψ/g     ZeRO-2  2Ψ + 14Ψ/g     ZeRO-3  16Ψ/g
//
// The gradients are summed in two steps, bucket by bucket: a
// reduce-scatter within each group (each GPU then holds its group's sum of
// its 1/g shard), then an all-reduce of each shard across the R groups,
// among the GPUs that hold the same shard (FSDP's HYBRID_SHARD: a
// reduce-scatter in the shard group, an all-reduce in the replicate
// group). The parameter gathers — ZeRO-1/2's after the step, ZeRO-3's
// before every forward and backward — run within each group only. Both
// are prefetched as plain ZeRO-3's are: issued when the op before starts,
// on the network while it computes (dataparallel.go), the overlap that
// AsyncHZP's background-stream scheduling gives.
//
// Bytes crossing servers in one iteration, for ring collectives (the
// training strategy's, channels.go) whose ranks sit on c servers in
// contiguous runs: a reduce-scatter or all-gather of S bytes over k ranks
// moves k−1 chunks of S/k over each of the ring's k edges, c of which
// cross servers, so c(k−1)S/k; an all-reduce twice that (0 when c = 1).
// With 2Ψ bytes of bf16 gradients and parameters, tp = pp = cp = 1, a
// flat ZeRO-3 over dp GPUs on n servers gathers 2m−1 times (before every
// op but the iteration's first, dataparallel.go) and reduce-scatters
// once:
//
//	flat  ZeRO-3      2m · n(dp−1)/dp · 2Ψ
//	hierarchical, g = a server's GPUs     2(R−1) · 2Ψ   (the all-reduces of
//	                  g shards of 2Ψ/g across R servers; the rest stays in)
//
// crossBytes computes the general case; the tests hold the simulator's
// transfers to it.
//
// Not modelled: AsyncHZP's adaptive choice of what to reshard where (g is
// given), ZeRO++'s quantized gathers (compression.parameters stands in),
// and mirrored replicas (mirror.go): a hierarchical run simulates every
// replica.

// hierarchical reports whether p shards within groups smaller than the
// data-parallel group.
func hierarchical(p scenario.Parallel) bool {
	return p.ZeRO >= 1 && p.ShardGroup() < p.DP
}

// checkZeROGroup refuses a zero_group that is not 0 or, with a ZeRO
// stage, a divisor of dp.
func checkZeROGroup(p scenario.Parallel, bad scenario.Reporter) {
	if g := p.ZeROGroup; g != 0 && (g < 0 || p.DP < 1 || p.DP%g != 0 || p.ZeRO == 0) {
		bad("parallel.zero_group", "is %d with parallel.zero %d and dp %d; allowed 0 (shard over all of dp) or, with zero 1–3, a divisor of dp: %s",
			g, p.ZeRO, p.DP, divisorList(p.DP))
	}
}

// divisorList is "1, 2, 4, 8" for 8: the divisors of n up to 65,536 (the
// most GPUs a training run has), at most about 200 characters of them.
func divisorList(n int) string {
	var b []byte
	for d := 1; d <= min(n, 1<<16) && len(b) < 200; d++ {
		if n%d == 0 {
			if len(b) > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendInt(b, int64(d), 10)
		}
	}
	return string(b)
}

// sumHierarchical sums one bucket of bytes of gradients over g's GPUs
// (rank i may start after ready[i]) as hierarchical ZeRO does: a
// reduce-scatter within each ZeRO group, then an all-reduce of each shard
// across the groups. It returns, per rank, the op after which its shard
// is summed.
func (tr *iteration) sumHierarchical(g group, ready []int, bytes units.Bytes) ([]int, error) {
	sg := tr.par.ShardGroup()
	var parts [][]int // the indexes of g.gpus in each ZeRO group (g.replicas ascend)
	widest := 0
	for i, r := range g.replicas {
		if i == 0 || r/sg != g.replicas[i-1]/sg {
			parts = append(parts, nil)
		}
		k := len(parts) - 1
		parts[k] = append(parts[k], i)
		widest = max(widest, len(parts[k]))
	}
	done := append([]int(nil), ready...)
	for pass := 0; pass <= widest; pass++ {
		sets, op, b := parts, collective.OpReduceScatter, bytes
		if pass > 0 { // the holders of shard pass−1: that GPU of each group
			var idx []int
			for _, p := range parts {
				if pass <= len(p) {
					idx = append(idx, p[pass-1])
				}
			}
			sets, op, b = [][]int{idx}, collective.OpAllReduce, bytes/units.Bytes(widest)
		}
		for _, idx := range sets {
			if len(idx) < 2 || b == 0 {
				continue
			}
			ids, err := tr.collective(op, g.purpose, pickAt(g.gpus, idx), pickAt(done, idx), b)
			if err != nil {
				return nil, err
			}
			for k, i := range idx {
				done[i] = ids[k]
			}
		}
	}
	return done, nil
}

// pickAt is xs at the indexes idx.
func pickAt(xs, idx []int) []int {
	out := make([]int, len(idx))
	for k, i := range idx {
		out[k] = xs[i]
	}
	return out
}
