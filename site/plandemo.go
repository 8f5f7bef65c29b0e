package site

import (
	"bytes"
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"paraplay/sim/plan"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
)

// searchFor runs the planner's whole search for the question scenario s
// asks (its model, cluster and global batch, plan.ForScenario) on every
// core: the workers change how fast, not what (plan.Run).
func searchFor(s scenario.Scenario) (plan.Config, *plan.Result, error) {
	cfg, err := plan.ForScenario(s)
	if err != nil {
		return cfg, nil, fmt.Errorf("view.plan: %w", err)
	}
	r, err := plan.Run(cfg, runtime.GOMAXPROCS(0), nil)
	if err != nil {
		return cfg, nil, fmt.Errorf("view.plan: %w", err)
	}
	return cfg, r, nil
}

// newPlanDemo is the embedded planner: a ```sim block with view.plan set.
// The block's scenario asks the question (its model, cluster and global
// batch, plan.ForScenario); the build runs the whole search, the same one
// the playground's plan tab runs, draws its finished scatter as the poster
// and writes the winner and the tally of losses into the caption. The live
// demo opens play.html with plan=1, which starts the search in the page.
func newPlanDemo(slug string, n int, s scenario.Scenario, v demoView) (*demo, error) {
	_, r, err := searchFor(s)
	if err != nil {
		return nil, err
	}
	// The scatter in enumeration order, as the page draws it.
	byIndex := slices.Clone(r.Plans)
	slices.SortFunc(byIndex, func(a, b *plan.Plan) int { return cmp.Compare(a.Index(), b.Index()) })
	var svg, compact bytes.Buffer
	dl := scene.PlanScatter(byIndex, r.Progress, scene.Options{Width: posterWidth, Height: posterHeight})
	if err := scene.WriteSVG(&svg, dl); err != nil {
		return nil, err
	}
	dl = scene.PlanScatter(byIndex, r.Progress, scene.Options{Width: compactWidth, Height: compactHeight, MinText: compactMinText, Compact: true})
	if err := scene.WriteSVG(&compact, dl); err != nil {
		return nil, err
	}
	path := fmt.Sprintf("posters/%s-%d.svg", slug, n)
	return &demo{
		scenario: s,
		view:     v,
		caption:  planCaption(s, r),
		poster:   Poster{Path: path, SVG: svg.Bytes(), Compact: &Poster{Path: compactPath(path), SVG: compact.Bytes()}},
	}, nil
}

// planCaption is the embedded planner's line of figures, all from the
// search the build ran: how many plans each rule removed, the best plan
// with its simulated iteration, MFU and peak memory against the GPU's
// memory, where the block's own plan ended up, and why the others lost.
func planCaption(s scenario.Scenario, r *plan.Result) string {
	pr := r.Progress
	parts := []string{fmt.Sprintf("planner: %s plans searched, %s out of memory, %s dominated, %s ruled out by the lower bound, %s simulated",
		count(pr.Plans-pr.Rejected), count(pr.OutOfMemory), count(pr.Dominated), count(pr.Bounded), count(pr.Simulated))}
	if len(r.Plans) == 0 || r.Plans[0].Status != plan.Best {
		return strings.Join(append(parts, "no plan fits in memory"), " · ")
	}
	best := r.Plans[0]
	parts = append(parts, fmt.Sprintf("best: %s — iteration %s, MFU %s, peak %s of %s per GPU", best.Label(),
		roundTime(best.Result.Iteration), pct(best.Result.MFU), gib(best.Result.PeakMemory), gib(best.Estimate.Capacity)))
	if own := findPlan(r.Plans, s.Parallel); own != nil && own != best {
		parts = append(parts, "the block's own plan: "+ownFate(own, best))
	}
	if len(r.Plans) > 1 && r.Plans[1].Status == plan.Simulated {
		p := r.Plans[1]
		parts = append(parts, fmt.Sprintf("runner-up %s: %s slower, lost on %s", p.Label(), roundTime(p.Iteration()-best.Iteration()), p.Reason))
	}
	return strings.Join(append(parts, "why the others lost: "+lossTally(r.Plans)), " · ")
}

// ownFate says what the search did with the block's own plan.
func ownFate(p, best *plan.Plan) string {
	switch p.Status {
	case plan.OutOfMemory:
		return fmt.Sprintf("out of memory (%s per GPU)", gib(p.Estimate.PeakMemory))
	case plan.Simulated:
		return fmt.Sprintf("simulated at %s, %.2f× the best (%s)", roundTime(p.Result.Iteration),
			p.Result.Iteration.Seconds()/best.Result.Iteration.Seconds(), p.Reason)
	case plan.Bounded:
		return fmt.Sprintf("at least %s, so never simulated (%s)", roundTime(p.Estimate.LowerBound), p.Reason)
	}
	return string(p.Status)
}

// findPlan is the plan of the search with the layout, schedule, batch
// split, ZeRO stage and recomputation of q, or nil (q may lie outside the
// space, e.g. with a micro-batch size the search does not try).
func findPlan(plans []*plan.Plan, q scenario.Parallel) *plan.Plan {
	for _, p := range plans {
		o := p.Scenario.Parallel
		if o.DP == q.DP && o.TP == q.TP && o.PP == q.PP && o.CP == q.CP && o.EP == q.EP && o.Schedule == q.Schedule &&
			(o.Schedule != "interleaved" || o.VirtualStages == q.VirtualStages) && o.MicroBatchSize == q.MicroBatchSize &&
			o.Microbatches == q.Microbatches && o.ZeRO == q.ZeRO && o.Recompute == q.Recompute &&
			o.FirstLastFewer == q.FirstLastFewer && o.TPCommOverlap == q.TPCommOverlap {
			return p
		}
	}
	return nil
}

// lossTally counts the losing plans by their one-word reason, commonest
// first: "oom 6,067, compute 1,055, dominated 279".
func lossTally(plans []*plan.Plan) string {
	var out []string
	for _, l := range plan.Losses(plans) {
		out = append(out, l.Reason+" "+count(l.Plans))
	}
	return strings.Join(out, ", ")
}

// count prints an integer with thousands separators: 7,533.
func count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
