package parallel

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Dim names one dimension of a plan.
type Dim string

// The dimensions a plan can split along.
const (
	TP Dim = "tp"
	CP Dim = "cp"
	PP Dim = "pp"
	DP Dim = "dp"
)

// DefaultOrder is innermost first: TP, CP, PP, DP.
var DefaultOrder = []Dim{TP, CP, PP, DP}

// Plan is the degree of each kind of parallelism.
type Plan struct {
	// DP is the number of data-parallel replicas, ≥ 1.
	DP int
	// TP is the tensor-parallel degree (Megatron), ≥ 1.
	TP int
	// PP is the number of pipeline stages (devices per pipeline), ≥ 1.
	PP int
	// CP is the context-parallel degree (the sequence split over GPUs), ≥ 1.
	CP int
	// EP is the expert-parallel degree, ≥ 1: an expert's group of GPUs
	// spans EP data-parallel ranks (and, with ETP < TP, tensor-parallel
	// ones), so EP·ETP must divide TP·DP.
	EP int
	// ETP is the expert tensor-parallel degree: each expert's weights
	// split ETP ways, dividing TP; 0 means TP.
	ETP int
	// Order lists the dimensions innermost first; nil means DefaultOrder.
	Order []Dim
}

// Coord is a rank's position along each dimension.
type Coord struct {
	DP, TP, PP, CP int
}

// World is the number of ranks: dp·tp·pp·cp.
func (p Plan) World() int { return p.DP * p.TP * p.PP * p.CP }

func (p Plan) order() []Dim {
	if len(p.Order) == 0 {
		return DefaultOrder
	}
	return p.Order
}

func (p Plan) degree(d Dim) int {
	switch d {
	case TP:
		return p.TP
	case CP:
		return p.CP
	case PP:
		return p.PP
	case DP:
		return p.DP
	}
	return 0
}

func (c *Coord) at(d Dim) *int {
	switch d {
	case TP:
		return &c.TP
	case CP:
		return &c.CP
	case PP:
		return &c.PP
	}
	return &c.DP
}

// Rank is the rank of the GPU at c.
func (p Plan) Rank(c Coord) int {
	r, stride := 0, 1
	for _, d := range p.order() {
		r += *c.at(d) * stride
		stride *= p.degree(d)
	}
	return r
}

// Coord is the position of rank r.
func (p Plan) Coord(r int) Coord {
	var c Coord
	for _, d := range p.order() {
		n := p.degree(d)
		*c.at(d) = r % n
		r /= n
	}
	return c
}

// Group returns the ranks that share every coordinate of rank r except d,
// in order of their coordinate along d: r's tensor-parallel group for TP,
// its pipeline for PP, its data-parallel replicas for DP.
func (p Plan) Group(r int, d Dim) []int {
	c := p.Coord(r)
	n := p.degree(d)
	g := make([]int, n)
	for i := 0; i < n; i++ {
		*c.at(d) = i
		g[i] = p.Rank(c)
	}
	return g
}

// ExpertTP is the expert tensor-parallel degree: ETP, or TP when 0.
func (p Plan) ExpertTP() int {
	if p.ETP == 0 {
		return p.TP
	}
	return p.ETP
}

// ExpertCoord is rank r's place in the experts' layout of its pipeline
// stage and context slice, whose tp·dp ranks are numbered i = tp + TP·dp
// (the plan's coordinates, whatever the Order): its expert
// tensor-parallel index i mod ETP, its expert-parallel index (which
// experts it holds) ⌊i/ETP⌋ mod EP, and its expert data-parallel replica
// ⌊i/(ETP·EP)⌋. With ETP = TP the expert-parallel group is EP consecutive
// data-parallel ranks, as Megatron-LM places it; with ETP < TP it takes
// TP/ETP tensor-parallel ranks of each.
func (p Plan) ExpertCoord(r int) (etp, ep, edp int) {
	c := p.Coord(r)
	e := p.ExpertTP()
	i := c.TP + p.TP*c.DP
	return i % e, (i / e) % p.EP, i / (e * p.EP)
}

// ExpertGroup is the ranks of rank r's expert-parallel group, in order of
// their expert-parallel index.
func (p Plan) ExpertGroup(r int) []int {
	c := p.Coord(r)
	e := p.ExpertTP()
	i := c.TP + p.TP*c.DP
	base := i - ((i/e)%p.EP)*e
	g := make([]int, p.EP)
	for k := range g {
		j := base + k*e
		c.TP, c.DP = j%p.TP, j/p.TP
		g[k] = p.Rank(c)
	}
	return g
}

// Check says whether the plan fits a cluster of gpus GPUs, perNode to a
// server. Errors name the rule broken; warnings are plans that run but
// are usually a mistake (a tensor-parallel group that spans servers, whose
// per-layer collectives then cross the network).
func (p Plan) Check(gpus, perNode int) (warnings []string, err error) {
	var errs []error
	bad := func(field, format string, args ...any) { errs = addf(errs, "parallel."+field, format, args) }
	for _, d := range []struct {
		name string
		v    int
	}{{"dp", p.DP}, {"tp", p.TP}, {"pp", p.PP}, {"cp", p.CP}, {"ep", p.EP}} {
		if d.v < 1 || d.v > 65536 {
			bad(d.name, "is %d; allowed 1..65536", d.v)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if w := p.World(); w != gpus {
		bad("dp", "dp·tp·pp·cp = %s but the cluster has %s GPUs", thousands(w), thousands(gpus))
	}
	etp := p.ExpertTP()
	switch {
	case p.ETP < 0 || p.ETP > p.TP || p.TP%etp != 0:
		bad("etp", "is %d; allowed a divisor of tp = %d (0 = tp)", p.ETP, p.TP)
	case etp == p.TP && p.DP%p.EP != 0:
		bad("ep", "ep = %d must divide dp = %d: experts are spread over data-parallel ranks", p.EP, p.DP)
	case (p.TP*p.DP)%(p.EP*etp) != 0:
		bad("ep", "ep·etp = %d·%d must divide tp·dp = %d·%d: experts are spread over data- and tensor-parallel ranks", p.EP, etp, p.TP, p.DP)
	}
	if len(p.Order) > 0 {
		sorted := slices.Clone(p.Order)
		slices.Sort(sorted)
		if !slices.Equal(sorted, []Dim{CP, DP, PP, TP}) {
			bad("order", "%v must list tp, cp, pp and dp once each", p.Order)
		}
	}
	if perNode > 0 && p.TP > perNode {
		warnings = append(warnings, fmt.Sprintf("tp = %d exceeds gpus_per_node = %d: tensor-parallel collectives will cross the network", p.TP, perNode))
	} else if perNode > 0 && perNode%p.TP != 0 && p.order()[0] == TP {
		warnings = append(warnings, fmt.Sprintf("tp = %d does not divide gpus_per_node = %d: some tensor-parallel groups span two servers", p.TP, perNode))
	}
	return warnings, errors.Join(errs...)
}

// addf appends to errs the error "prefix: " + format of args, the
// field's key. It is not inlined: the
// validators' closures call it from dozens of places, and an inlined
// fmt.Errorf at each costs the browser's download a few hundred bytes.
//
//go:noinline
func addf(errs []error, prefix, format string, args []any) []error {
	return append(errs, fmt.Errorf("%s: %s", prefix, fmt.Sprintf(format, args...)))
}

// thousands writes n with commas, as the error messages quote plan sizes.
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
