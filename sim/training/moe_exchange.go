package training

import (
	"paraplay/sim/moe"
	"paraplay/sim/units"
)

// exchange prices a mixture of experts' all-to-alls over an
// expert-parallel group: the one place that says how a layer's dispatch
// and combine cross the fabric. Today it is the α–β closed form of a
// pairwise exchange (Thakur, Rabenseifner & Gropp 2005) on the group's
// bottleneck path, driven by the routing's loads; a model that puts the
// transfers on the links (hierarchical, NVLink then RDMA, as DeepEP) and
// overlaps them with compute replaces it.
type exchange struct {
	// gpus is the group's size, n.
	gpus int
	// alpha and bw are the group's bottleneck path: the slowest between
	// neighbouring ranks (topo.Paths.Bottleneck).
	alpha units.Time
	bw    units.Bandwidth
	// perCopy is the bytes of one token copy: hidden × 2 bytes, times
	// compression.activations.
	perCopy float64
}

// exchange is the iteration's: the first expert-parallel group's path,
// free on an ideal network or with one GPU per group.
func (tr *iteration) exchange() exchange {
	x := exchange{gpus: tr.par.EP, perCopy: float64(tr.model.Hidden) * bytesPerElement * tr.s.Compression.Activations}
	if tr.fid == ideal || tr.par.EP <= 1 {
		x.gpus = 1
		return x
	}
	a, bw, err := tr.paths.Bottleneck(tr.plan.ExpertGroup(0))
	if err != nil {
		x.gpus = 1
		return x
	}
	x.alpha, x.bw = a, bw
	return x
}

// time is one all-to-all of layer l (its dispatch, or its combine, which
// moves the same copies back) when each GPU routes sent token copies
// (tokens × top_k): (n−1)α plus the busiest GPU's bytes over the path,
// where GPU j sends its copies less those it keeps (its share of every
// GPU's, Load_j/n) and receives Load_j less its own. Balanced, every GPU
// sends and receives (n−1)/n of its S = sent·perCopy bytes: the pairwise
// exchange's (n−1)α + (n−1)/n·S·β exactly. Copies dropped by capacity
// are not sent.
func (x exchange) time(l moe.Layer, sent float64) units.Time {
	if x.gpus <= 1 {
		return 0
	}
	n := float64(x.gpus)
	if l.Copies > 0 {
		sent *= 1 - l.Dropped/l.Copies
	}
	var most float64
	for _, load := range l.Load {
		most = max(most, sent-load/n, load*(n-1)/n)
	}
	return units.Round((n-1)*x.alpha.Seconds() + most*x.perCopy/float64(x.bw))
}
