package calibrate

import (
	"fmt"
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/kineto"
	"paraplay/sim/nccllog"
)

// perfOps maps nccl-tests' binary names (all_reduce_perf → "all_reduce")
// to ParaPlay's operations where they differ.
var perfOps = map[string]string{"alltoall": "all_to_all"}

// Op is ParaPlay's name of the collective an nccl-tests binary measures.
func Op(perf string) string {
	if op, ok := perfOps[perf]; ok {
		return op
	}
	return perf
}

// defaultAlgorithms is the algorithm ParaPlay prices an operation by when
// NCCL's kernel name gives one ParaPlay lacks (NVLS, CollNet, PAT) or none:
// NCCL's ring broadcast is a pipelined chain, its reduce is priced as a
// binomial tree (ParaPlay has no chain reduce).
var defaultAlgorithms = map[string]string{
	"all_reduce": "ring", "reduce_scatter": "ring", "all_gather": "ring", "broadcast": "chain",
	"reduce": "binomial", "all_to_all": "pairwise", "sendrecv": "direct",
}

// Algorithm is the algorithm a fit prices op by: algo when ParaPlay has it
// for op, else op's default (defaultAlgorithms); "" for an operation
// ParaPlay does not price.
func Algorithm(op, algo string) string {
	if algo != "" && algo != "auto" && slices.Contains(collective.Algorithms(op), algo) {
		return algo
	}
	return defaultAlgorithms[op]
}

// LogPoints turns an nccl-tests log's rows into points: each row's
// out-of-place and in-place times, for op (the log's own when empty) by
// algo over ranks (the log's rank lines when 0).
func LogPoints(l *nccllog.Log, name, op, algo string, ranks int) ([]Point, error) {
	if op == "" {
		op = Op(l.Op)
	}
	if op == "" {
		return nil, fmt.Errorf("%s: the log does not say which collective it measured (no \"Collective test starting\" line): name it (all_reduce, all_gather, …)", name)
	}
	if ranks == 0 {
		ranks = len(l.Ranks)
	}
	if ranks < 2 {
		return nil, fmt.Errorf("%s: %d ranks: the log lists no \"Rank\" lines for at least 2 ranks; give the rank count", name, ranks)
	}
	a := Algorithm(op, algo)
	if a == "" {
		return nil, fmt.Errorf("%s: ParaPlay prices no %q collective", name, op)
	}
	var out []Point
	for _, row := range l.Rows {
		if row.Size == 0 {
			continue
		}
		cA, cF, err := Coefficients(op, a, ranks, row.Size)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, m := range []struct {
			which string
			m     nccllog.Measure
		}{{"out-of-place", row.Out}, {"in-place", row.In}} {
			if m.m.OK && m.m.Time > 0 {
				out = append(out, Point{Label: fmt.Sprintf("%s %s %v", name, m.which, row.Size), Bytes: row.Size, A: cA, F: cF, Time: m.m.Time * 1e-6})
			}
		}
	}
	return out, nil
}

// TracePoints turns a profiler trace's NCCL kernels into points: each
// kernel with a size and a group of 2 or more, priced by its own
// operation and algorithm (Algorithm). A kernel's time includes its wait
// for the slowest peer, so the fit is an upper bound on the link's α and a
// lower bound on its bandwidth.
func TracePoints(r kineto.RankReport) []Point {
	var out []Point
	for _, n := range r.NCCL {
		a := Algorithm(string(n.Op), n.Algorithm)
		if n.Bytes == 0 || n.GroupSize < 2 || n.Time <= 0 || a == "" {
			continue
		}
		cA, cF, err := Coefficients(string(n.Op), a, n.GroupSize, n.Bytes)
		if err != nil {
			continue
		}
		out = append(out, Point{Label: fmt.Sprintf("%s %s %v at %v", r.File, n.Op.Label(), n.Bytes, n.Start),
			Bytes: n.Bytes, A: cA, F: cF, Time: n.Time.Seconds()})
	}
	return out
}
