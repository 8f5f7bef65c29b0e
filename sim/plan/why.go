//go:build !js

package plan

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"paraplay/sim/units"
)

// Why explains the best plan of a finished search against the runner-up
// (the next simulated plan) and against the naive layouts a person tries
// first: pure data parallelism, and tensor parallelism over one server's
// GPUs with data parallelism across servers. Each naive layout is the
// search's best plan of that shape (by iteration, else the one that
// needs the least memory). Empty when no plan fits.
func (r *Result) Why() []Breakdown {
	if len(r.Plans) == 0 || r.Plans[0].Status != Best {
		return nil
	}
	best := r.Plans[0]
	out := []Breakdown{breakdown(best, best, "best")}
	for _, p := range r.Plans[1:] {
		if p.Status == Simulated {
			out = append(out, breakdown(p, best, "runner-up"))
			break
		}
	}
	per := r.Config.Cluster.GPUsPerNode
	naive := []struct {
		role string
		ok   func(q *Plan) bool
	}{
		{"data parallel only", func(q *Plan) bool { return q.Family == "dp" || q.Family == "single" }},
		{fmt.Sprintf("tp %d in the server, dp across", per), func(q *Plan) bool { return q.Family == "tp·dp" && q.Scenario.Parallel.TP == per }},
	}
	for _, n := range naive {
		if p := firstOf(r.Plans, n.ok); p != nil && p != best {
			out = append(out, breakdown(p, best, n.role))
		}
	}
	return out
}

// firstOf is the first plan of plans (the Result's order: best, simulated,
// bounded, ..., out of memory by peak) that ok accepts.
func firstOf(plans []*Plan, ok func(*Plan) bool) *Plan {
	for _, p := range plans {
		if ok(p) && p.Status != Dominated {
			return p
		}
	}
	return nil
}

// breakdown is p's Breakdown against the best plan.
func breakdown(p, best *Plan, role string) Breakdown {
	b := Breakdown{Label: p.Label(), Role: role, Simulated: p.Result != nil, Fits: p.Status != OutOfMemory,
		PeakMemory: p.Estimate.PeakMemory, Headroom: p.Estimate.Capacity - p.Estimate.PeakMemory, Seconds: map[string]float64{}}
	if p.Result != nil {
		b.PeakMemory = max(b.PeakMemory, p.Result.PeakMemory)
		b.Headroom = p.Estimate.Capacity - b.PeakMemory
	}
	if !b.Fits {
		b.Versus = fmt.Sprintf("does not fit: needs %.1f GiB per GPU, %.1f GiB more than the GPU has", gib(b.PeakMemory), gib(-b.Headroom))
		return b
	}
	b.Iteration = p.Iteration().Seconds()
	for k, v := range parts(p) {
		if v > 0 {
			b.Seconds[k] = v
		}
	}
	if p != best {
		b.Versus = versus(p, best, b)
	}
	return b
}

// parts is p's iteration split into Parts: the simulated split, or the
// bound's.
func parts(p *Plan) map[string]float64 {
	if p.Result != nil {
		return simulatedParts(p)
	}
	return boundParts(p)
}

// versus says how p compares with the best: the time it loses (or
// gains) in each part, largest first, and the memory it leaves.
func versus(p, best *Plan, b Breakdown) string {
	pp, bp := parts(p), parts(best)
	type diff struct {
		part string
		d    float64
	}
	var ds []diff
	for _, k := range Parts {
		if d := pp[k] - bp[k]; math.Abs(d) >= 5e-4 {
			ds = append(ds, diff{k, d})
		}
	}
	sort.SliceStable(ds, func(i, j int) bool { return math.Abs(ds[i].d) > math.Abs(ds[j].d) })
	ds = ds[:min(len(ds), 3)]
	var words []string
	for _, d := range ds {
		verb := "loses"
		if d.d < 0 {
			verb = "gains"
		}
		words = append(words, fmt.Sprintf("%s %s %s", verb, fmtS(math.Abs(d.d)), partWords(d.part)))
	}
	total := b.Iteration - best.Iteration().Seconds()
	head := fmt.Sprintf("%s slower than the best", fmtS(total))
	if !b.Simulated {
		head = fmt.Sprintf("at least %s, %s more than the best (a bound: not simulated)", fmtS(b.Iteration), fmtS(total))
	}
	if len(words) > 0 {
		head += ": it " + strings.Join(words, ", ")
	}
	bh := best.Estimate.Capacity - best.Estimate.PeakMemory
	if best.Result != nil {
		bh = best.Estimate.Capacity - max(best.Estimate.PeakMemory, best.Result.PeakMemory)
	}
	return head + fmt.Sprintf("; memory headroom %.1f GiB against the best's %.1f GiB", gib(b.Headroom), gib(bh))
}

// partWords names each part in a sentence ("loses 0.8 s to ...").
func partWords(part string) string {
	switch part {
	case "compute":
		return "of compute"
	case "bubble":
		return "to the pipeline bubble"
	case "tp":
		return "of exposed tensor-parallel communication"
	case "cp":
		return "of exposed context-parallel communication"
	case "ep":
		return "of exposed expert all-to-all"
	case "pp":
		return "of exposed pipeline sends"
	case "dp":
		return "of exposed gradient reduction"
	case "zero":
		return "of exposed ZeRO gathers"
	}
	return "of " + part
}

// fmtS prints seconds with three significant decimals.
func fmtS(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.0f ms", s*1e3)
	}
	return fmt.Sprintf("%.2f s", s)
}

func gib(b units.Bytes) float64 { return float64(b) / float64(units.GiB) }
