//go:build !js

package training

import (
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/parallel"
	"paraplay/sim/pipeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// streamBound is what the data-parallel collectives of one GPU of a
// pipeline device cost at the least, at analytic fidelity. Each of them is
// a closed-form op on the GPU's one communication stream
// (taskgraph.ClosedForm), so they run one at a time, and all of them start
// at time 0 or later:
//
//   - Before is the sum of the collectives the GPU's optimizer step waits
//     for: every gradient bucket's all-reduce or reduce-scatter and, under
//     ZeRO-3, the parameter all-gather before every F and B. The step
//     cannot start before Before.
//   - After is ZeRO-1/2's all-gather of the updated parameters, which
//     starts after the step.
//
// So the device's part of the iteration is at least
// max(its ops, Before) + its optimizer step + After (Estimator.Estimate).
// The figures use the same closed forms (ringConfig, ringTime) and the same
// buckets (bucketCount) as the graph that dataParallel lays out, for the
// GPU of tensor- and context-parallel rank 0 of replica 0.
//
// Besides, the gradient buckets of the chunk whose backward is the
// device's last op (Last, in bucket order) become ready piece by piece
// as that op runs, and run one after another on the stream: the step
// also waits for the last of them (drain).
type streamBound struct {
	Before, After units.Time
	Last          []units.Time
}

// streamWait is how long device d's optimizer step waits beyond end, the
// end of the device's ops, for its data-parallel collectives (b): for all
// of them on the stream, and for the buckets of its last op to drain.
func (tr *iteration) streamWait(b streamBound, d int, end units.Time) units.Time {
	order := tr.sch.Order[d]
	final := order[len(order)-1]
	fc, fb := tr.opCost(final, d, tr.stageOfDev[d][final.Chunk])
	return max(0, b.Before-end, b.drain(end, fc+fb)-end)
}

// deviceStart is when device d's first op may start at the earliest:
// after microbatch 0's forward through the stages below d's lowest
// (fwd, forwardChain).
func (tr *iteration) deviceStart(fwd []units.Time, d int) units.Time {
	return fwd[slices.Min(tr.stageOfDev[d])]
}

// drain is when the last of the final op's gradient buckets is summed at
// the earliest, given that the op (total long, cut into len(Last) equal
// pieces as ops.go cuts it) ends at end; end when there are none.
func (b streamBound) drain(end, total units.Time) units.Time {
	nb := units.Time(len(b.Last))
	if nb == 0 {
		return end
	}
	piece := max(0, total/nb-1) // pieces are cut per component: at least this
	var free units.Time
	for j, t := range b.Last {
		ready := end - (total - units.Time(j+1)*piece)
		if j == len(b.Last)-1 {
			ready = end
		}
		free = max(free, ready) + t
	}
	return free
}

// ringKey names a data-parallel group of a layout: the gradient group or
// the ZeRO group (shard) of pipeline device 0.
type ringKey struct {
	topo           *topo.Topology // the cluster (an estimator serves several)
	dp, tp, pp, cp int
	order          string
	shard          bool
}

// ringLinks is what ringTime reads of a group, bytes aside: its ring
// configuration and the costs of its links.
type ringLinks struct {
	cfg            collective.Config
	ia, ea, alpha  units.Time
	ib, eb, bw     units.Bandwidth
	direct, failed bool
	// torus is the run's torus collective over the group when it is a box
	// of a TPU slice (torus.go's torusTime; ok false otherwise), which the
	// run plays instead of a ring: nil off a slice.
	torus func(op collective.Op, bytes units.Bytes) (float64, bool)
}

// streamBounds is streamBound for every pipeline device; all zero when the
// bound does not apply (an ideal network, detailed fidelity, where the
// collectives are messages, or options that reshape them: compression,
// hierarchical sharding, cyclic data parallelism, sdp).
//
// links caches each group's ringLinks across the scenarios of one
// estimator: a search prices thousands of plans of the same few hundred
// layouts. The groups of every pipeline device are priced as device 0's,
// which they are on the planner's clusters: one GPU type, every server
// wired alike, so that device d's group is device 0's moved by d servers
// or d slots of each server (TestBoundBelowSimulation checks the bound
// against the run on random clusters).
func (tr *iteration) streamBounds(links map[ringKey]*ringLinks) ([]streamBound, error) {
	out := make([]streamBound, tr.sch.Stages)
	c := tr.s.Compression
	if tr.fid != analytic || !tr.real || hierarchical(tr.par) || tr.par.Cyclic || tr.sdp != nil ||
		c.Ratio < 1 || c.Parameters < 1 || tr.par.GradReduce == GradReduceAfterBackward {
		return out, nil
	}
	for d := range out {
		b, err := tr.streamBound(d, links)
		if err != nil {
			return nil, err
		}
		out[d] = b
	}
	return out, nil
}

// streamBound is device d's streamBound (see the type).
func (tr *iteration) streamBound(d int, links map[ringKey]*ringLinks) (streamBound, error) {
	var b streamBound
	grads, shard := tr.ringLinks(links, false), tr.ringLinks(links, true)
	op := collective.OpAllReduce
	if tr.par.ZeRO >= 1 {
		op = collective.OpReduceScatter
	}
	var params units.Bytes
	order := tr.sch.Order[d]
	final, want := order[len(order)-1], pipeline.B
	if tr.sch.SplitBackward {
		want = pipeline.W
	}
	for c := 0; c < tr.sch.Chunks; c++ {
		k := tr.stageOfDev[d][c]
		bytes := tr.gradBytes(k)
		params += bytes
		if grads.cfg.Ranks < 2 || bytes == 0 {
			continue
		}
		nb := tr.bucketCount(k)
		// The device's final op is chunk c's last backward (lastBackward)
		// when it is of c and of the kind that finishes the gradients.
		last := c == final.Chunk && final.Kind == want
		// Every bucket but the last is the same size: priced once.
		even := grads.time(op, bytes/units.Bytes(nb))
		for j := 0; j < nb; j++ {
			t := even
			if j == nb-1 && bytes%units.Bytes(nb) != 0 {
				t = grads.time(op, bytes/units.Bytes(nb)+bytes%units.Bytes(nb))
			}
			b.Before += t
			if last {
				b.Last = append(b.Last, t)
			}
		}
	}
	if grads.failed || shard.failed {
		return streamBound{}, nil // no path: the run will say so
	}
	if shard.cfg.Ranks < 2 || params == 0 {
		return b, nil
	}
	switch tr.par.ZeRO {
	case 1, 2:
		b.After = shard.time(collective.OpAllGather, params)
	case 3:
		gather := make([]units.Time, tr.sch.Chunks)
		for c := range gather {
			gather[c] = shard.time(collective.OpAllGather, tr.gradBytes(tr.stageOfDev[d][c]))
		}
		for i, o := range tr.sch.Order[d] {
			if o.Kind != pipeline.W && i > 0 {
				b.Before += gather[o.Chunk]
			}
		}
	}
	return b, nil
}

// ringLinks is device 0's gradient group (every copy of rank 0's
// weights, gradGroups) or ZeRO group (rank 0 of every replica,
// gatherAfterStep and zero3Gather), priced once per layout.
func (tr *iteration) ringLinks(links map[ringKey]*ringLinks, shard bool) *ringLinks {
	pl := tr.plan
	key := ringKey{tr.topo, pl.DP, pl.TP, pl.PP, pl.CP, tr.par.Order, shard}
	if l, ok := links[key]; ok {
		return l
	}
	var gpus []int
	for r := 0; r < pl.DP; r++ {
		for c := 0; c < pl.CP && (c == 0 || !shard); c++ {
			gpus = append(gpus, pl.Rank(parallel.Coord{DP: r, CP: c}))
		}
	}
	l := &ringLinks{cfg: tr.ringConfig(gpus, 0)}
	var err error
	switch {
	case len(gpus) < 2:
	case l.cfg.Channels > 1: // as ringTime reads them
		if l.ia, l.ib, err = tr.paths.Cost(gpus[0], gpus[1]); err == nil {
			l.ea, l.eb, err = tr.paths.Cost(gpus[0], gpus[l.cfg.PerNode])
		}
	default:
		l.alpha, l.bw, err = tr.paths.Bottleneck(gpus)
		l.direct = tr.algorithm(gpus) == "direct"
	}
	l.failed = err != nil
	if torusTimeOf != nil && tr.topo.Torus != nil && len(gpus) > 1 {
		l.torus = func(op collective.Op, bytes units.Bytes) (float64, bool) { return torusTimeOf(tr, op, gpus, bytes) }
	}
	links[key] = l
	return l
}

// time is ringTime's closed form on the group for bytes, rounded as
// collective rounds it for the graph (at least 1ns).
func (l *ringLinks) time(op collective.Op, bytes units.Bytes) units.Time {
	cfg := l.cfg
	cfg.Bytes = bytes
	var secs float64
	if l.torus != nil {
		if t, ok := l.torus(op, bytes); ok {
			return max(1, units.Round(t))
		}
	}
	switch {
	case cfg.Channels > 1 && cfg.Mesh:
		secs = collective.MeshChannelRingTime(string(op), cfg.Nodes, cfg.PerNode, cfg.Channels, 1, bytes, l.ia, l.ib, l.ea, l.eb)
	case cfg.Channels > 1:
		secs = collective.ChannelRingTime(string(op), cfg.Nodes, cfg.PerNode, cfg.Channels, 1, bytes, l.ia, l.ib, l.ea, l.eb)
	case l.direct:
		secs = collective.DirectMeshPhases(op, cfg.Ranks, bytes, collective.Link{Alpha: l.alpha, Bandwidth: l.bw})
	default:
		var err error
		if secs, err = collective.Time(string(op), "ring", cfg, l.alpha, l.bw); err != nil {
			return 0 // no closed form: no bound
		}
	}
	return max(1, units.Round(secs))
}

// forwardChain lists, for every model stage k, the time microbatch 0's
// forward takes through stages 0..k−1 (k+1 entries): no op of stage k
// starts sooner.
func (tr *iteration) forwardChain() []units.Time {
	fwd := make([]units.Time, tr.stages+1)
	for k, pl := range tr.sch.Layout {
		c, b := tr.opCost(pipeline.Op{Kind: pipeline.F, Chunk: pl.Chunk}, pl.Device, k)
		fwd[k+1] = fwd[k] + c + b
	}
	return fwd
}

// backwardTail is what must still run after device d's last op o: when o
// is a backward whose gradient goes on to the stage below, that
// microbatch's backwards on every stage below.
func (tr *iteration) backwardTail(o pipeline.Op, d int) units.Time {
	if o.Kind != pipeline.B || tr.sch.LocalLoss || tr.sch.SplitBackward {
		return 0
	}
	var tail units.Time
	for j := tr.stageOfDev[d][o.Chunk] - 1; j >= 0; j-- {
		pl := tr.sch.Layout[j]
		c, b := tr.opCost(pipeline.Op{Kind: pipeline.B, Microbatch: o.Microbatch, Chunk: pl.Chunk}, pl.Device, j)
		tail += c + b
	}
	return tail
}
