package training

import (
	"strconv"
	"strings"

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

// checkZeROGroup refuses a zero_group that is not 0 or a divisor of dp,
// or is set without a ZeRO stage.
func checkZeROGroup(p scenario.Parallel, bad scenario.Reporter) {
	g := p.ZeROGroup
	switch {
	case g == 0:
	case g < 0 || p.DP < 1 || p.DP%g != 0:
		bad("parallel.zero_group", "is %d; allowed 0 (shard over all of dp) or a divisor of parallel.dp %d: %s", g, p.DP, divisorList(p.DP))
	case p.ZeRO == 0:
		bad("parallel.zero_group", "is %d but parallel.zero is 0, which shards nothing; set parallel.zero to 1, 2 or 3, or zero_group to 0", g)
	}
}

// divisorList is "1, 2, 4, 8" for 8 (up to 64 listed; n ≥ 1).
func divisorList(n int) string {
	if n < 1 {
		return "none (parallel.dp must be ≥ 1)"
	}
	var ds []string
	for d := 1; d <= n && len(ds) < 64; d++ {
		if n%d == 0 {
			ds = append(ds, strconv.Itoa(d))
		}
	}
	return strings.Join(ds, ", ")
}

// shardGroups splits the indexes of members (whose replicas are replica)
// by ZeRO group: replica r is in group r/g. Empty groups are left out; a
// flat ZeRO gives one group of all.
func (tr *iteration) shardGroups(replica []int) [][]int {
	g := tr.par.ShardGroup()
	byGroup := make([][]int, (tr.par.DP+g-1)/max(g, 1))
	for i, r := range replica {
		byGroup[r/g] = append(byGroup[r/g], i)
	}
	out := byGroup[:0]
	for _, idx := range byGroup {
		if len(idx) > 0 {
			out = append(out, idx)
		}
	}
	return out
}

// sumHierarchical sums one bucket of bytes of gradients over g's GPUs
// (rank i may start after ready[i]) as hierarchical ZeRO does: a
// reduce-scatter within each shard group, then an all-reduce of each
// shard across the groups. It returns, per rank, the op after which its
// shard is summed.
func (tr *iteration) sumHierarchical(g group, ready []int, bytes units.Bytes) ([]int, error) {
	parts := tr.shardGroups(g.replicas)
	done := make([]int, len(g.gpus))
	copy(done, ready)
	widest := 0
	for _, idx := range parts {
		widest = max(widest, len(idx))
		if len(idx) < 2 {
			continue
		}
		ids, err := tr.collective(collective.OpReduceScatter, g.purpose, pickAt(g.gpus, idx), pickAt(done, idx), bytes)
		if err != nil {
			return nil, err
		}
		for j, i := range idx {
			done[i] = ids[j]
		}
	}
	shard := bytes / units.Bytes(widest)
	for j := 0; j < widest; j++ {
		var idx []int // the j-th GPU of each group: the holders of one shard
		for _, p := range parts {
			if j < len(p) {
				idx = append(idx, p[j])
			}
		}
		if len(idx) < 2 || shard == 0 {
			continue
		}
		ids, err := tr.collective(collective.OpAllReduce, g.purpose, pickAt(g.gpus, idx), pickAt(done, idx), shard)
		if err != nil {
			return nil, err
		}
		for k, i := range idx {
			done[i] = ids[k]
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
