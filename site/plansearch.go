package site

import (
	"fmt"
	"html"
	"strings"
	"sync"

	"paraplay/sim/launch"
	"paraplay/sim/plan"
	"paraplay/sim/scenario"
)

// A search table (view.plan with view.static) runs the planner on the
// block's question when the site is built, as the embedded planner does,
// but shows no scatter and no live demo: a question of thousands of GPUs
// takes the browser too long. The table lists the best plan and its
// runners-up, and beside them the plans of view.compare (the block's
// scenario with some URL parameters set, e.g. a published layout), each
// simulated the same way (plan.Evaluate); under it the build writes, in
// words, where the best plan differs from the first of them and why it is
// faster, and the best plan's Megatron-LM flags (launch.Megatron). Every
// figure is the simulator's, so an article quotes none of them by hand:
//
//	view:
//	  plan: true
//	  static: true
//	  compare:
//	    - {label: Meta's layout, set: ""}
//	    - {label: the same with 1F1B, set: "schedule=1f1b&virtual_stages=1"}

// searchTable is a finished search and its compare rows, simulated.
type searchTable struct {
	cfg    plan.Config
	r      *plan.Result
	beside []besidePlan
}

// besidePlan is a compare row: its label and the plan, evaluated.
type besidePlan struct {
	label string
	p     *plan.Plan
}

// searches caches the search tables of one process: a build renders an
// article once, but a test process renders every article several times,
// and the 16,384-GPU search takes tens of seconds.
var searches struct {
	sync.Mutex
	done map[string]searchDone
}

type searchDone struct {
	t   *searchTable
	err error
}

// planSearch runs (once per process) the search for the block's question
// and evaluates its compare rows.
func planSearch(s scenario.Scenario, rows []compareRow) (*searchTable, error) {
	key := s.Query().Encode()
	for _, r := range rows {
		key += "\n" + r.Label + "\t" + r.Set
	}
	searches.Lock()
	defer searches.Unlock()
	if d, ok := searches.done[key]; ok {
		return d.t, d.err
	}
	t, err := runSearch(s, rows)
	if searches.done == nil {
		searches.done = map[string]searchDone{}
	}
	searches.done[key] = searchDone{t, err}
	return t, err
}

func runSearch(s scenario.Scenario, rows []compareRow) (*searchTable, error) {
	cfg, r, err := searchFor(s)
	if err != nil {
		return nil, err
	}
	if len(r.Plans) == 0 || r.Plans[0].Status != plan.Best {
		return nil, fmt.Errorf("view.plan: no plan of the search fits in memory")
	}
	t := &searchTable{cfg: cfg, r: r}
	for _, row := range rows {
		rs, err := applySet(s, row.Set)
		if err != nil {
			return nil, fmt.Errorf("view.compare %q: %w", row.Label, err)
		}
		p, err := plan.Evaluate(rs)
		if err != nil {
			return nil, fmt.Errorf("view.compare %q: %w", row.Label, err)
		}
		t.beside = append(t.beside, besidePlan{row.Label, p})
	}
	return t, nil
}

// runnersUp is how many simulated plans after the best the table lists.
const runnersUp = 3

// searchHTML renders the table, its caption, the comparison in words and
// the best plan's launch flags.
func searchHTML(title string, t *searchTable) (string, error) {
	esc := html.EscapeString
	best := t.r.Plans[0]
	var b strings.Builder
	b.WriteString(`<figure class="plan-table plan-search"><table><thead><tr><th>plan</th><th>iteration</th><th>MFU</th>` +
		`<th>bubble</th><th>peak memory per GPU</th><th>against the best</th></tr></thead><tbody>` + "\n")
	row := func(role string, p *plan.Plan) error {
		br, err := t.r.Against(p, role)
		if err != nil {
			return err
		}
		it, mfu, bubble, vs := "—", "—", "—", br.Versus
		if p.Result != nil && p.Status != plan.OutOfMemory {
			it, mfu, bubble = roundTime(p.Result.Iteration), pct(p.Result.MFU), pct(p.Result.Bubble)
		}
		if p == best {
			vs = "the fastest plan that fits"
		}
		fmt.Fprintf(&b, "<tr><td>%s<br><small>%s</small></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			esc(role), esc(p.Label()), esc(it), esc(mfu), esc(bubble), esc(gib(br.PeakMemory)), esc(vs))
		return nil
	}
	if err := row("best", best); err != nil {
		return "", err
	}
	n := 0
	for _, p := range t.r.Plans[1:] {
		if p.Status == plan.Simulated && n < runnersUp {
			n++
			if err := row(fmt.Sprintf("runner-up %d", n), p); err != nil {
				return "", err
			}
		}
	}
	for _, x := range t.beside {
		if err := row(x.label, x.p); err != nil {
			return "", err
		}
	}
	pr := t.r.Progress
	fmt.Fprintf(&b, `</tbody></table><figcaption><strong>%s</strong>. The planner's search, run when the site was built `+
		`(<code>%s</code>): %s plans, %s out of memory, %s dominated by their ZeRO-2 twins, %s ruled out by the lower bound, `+
		`%s simulated at analytic fidelity, as was every plan in the table; %s of HBM per GPU.</figcaption></figure>`+"\n",
		esc(title), esc(planCommand(t.cfg)), count(pr.Plans-pr.Rejected), count(pr.OutOfMemory), count(pr.Dominated),
		count(pr.Bounded), count(pr.Simulated), esc(gib(best.Estimate.Capacity)))
	if len(t.beside) > 0 {
		b.WriteString(`<p class="plan-search-summary">` + esc(searchSummary(best, t.beside[0])) + "</p>\n")
	}
	switch flags, err := launch.Megatron(best.Scenario); {
	case best.Scenario.Cluster.Topology != "": // a TPU slice runs JAX or MaxText: no Megatron-LM flags
	case err == nil:
		b.WriteString(`<p class="plan-search-summary">The best plan as Megatron-LM flags (<code>paraplay plan … --emit megatron</code>):</p>` +
			"\n<pre><code>" + esc(flags) + "</code></pre>\n")
	default:
		b.WriteString(`<p class="plan-search-summary">Megatron-LM cannot run the best plan as it stands: ` + esc(err.Error()) + ".</p>\n")
	}
	return b.String(), nil
}

// planCommand is the paraplay plan command line that asks cfg's question.
func planCommand(cfg plan.Config) string {
	c := fmt.Sprintf("paraplay plan --model %s --gpus %d --gpu %s --global-batch %d", cfg.Model.Preset, cfg.GPUs(), cfg.Cluster.GPU, cfg.GlobalBatch)
	if t := cfg.Cluster.Topology; t != "" {
		c = fmt.Sprintf("paraplay plan --model %s --gpu %s --topology %s --global-batch %d", cfg.Model.Preset, cfg.Cluster.GPU, t, cfg.GlobalBatch)
	}
	if cfg.Model.SeqLen > 0 {
		c += fmt.Sprintf(" --seq-len %d", cfg.Model.SeqLen)
	}
	return c
}

// searchSummary says in words where the best plan differs from a compare
// row's plan and what each costs: the plan fields that differ, both
// iterations, and the row's breakdown against the best (plan.Breakdown).
func searchSummary(best *plan.Plan, x besidePlan) string {
	a, o := best.Scenario.Parallel, x.p.Scenario.Parallel
	var diffs []string
	for _, d := range []struct {
		name string
		a, o int
	}{{"tensor parallelism", a.TP, o.TP}, {"context parallelism", a.CP, o.CP}, {"pipeline stages", a.PP, o.PP},
		{"data-parallel replicas", a.DP, o.DP}, {"expert parallelism", a.EP, o.EP}, {"micro-batch size", a.MicroBatchSize, o.MicroBatchSize},
		{"microbatches per replica", a.Microbatches, o.Microbatches}, {"ZeRO stage", a.ZeRO, o.ZeRO}} {
		if d.a != d.o {
			diffs = append(diffs, fmt.Sprintf("%s %d instead of %d", d.name, d.a, d.o))
		}
	}
	if sa, so := scheduleName(a), scheduleName(o); sa != so {
		diffs = append(diffs, fmt.Sprintf("the %s schedule instead of %s", sa, so))
	}
	if a.FirstLastFewer != o.FirstLastFewer {
		diffs = append(diffs, fmt.Sprintf("%s instead of %s", layerSplit(a), layerSplit(o)))
	}
	if a.TPCommOverlap != o.TPCommOverlap {
		diffs = append(diffs, fmt.Sprintf("tensor-parallel overlap %s", map[bool]string{true: "on", false: "off"}[a.TPCommOverlap]))
	}
	if a.Recompute != o.Recompute {
		diffs = append(diffs, fmt.Sprintf("recomputation %s instead of %s", a.Recompute, o.Recompute))
	}
	if la, lo := meshLayout(a), meshLayout(o); la != lo {
		diffs = append(diffs, fmt.Sprintf("the mesh laid on the torus axes %s instead of %s (innermost first)", la, lo))
	}
	if len(diffs) == 0 {
		return fmt.Sprintf("The best plan is %s.", x.label)
	}
	text := fmt.Sprintf("Against %s, the best plan has %s.", x.label, strings.Join(diffs, ", "))
	if x.p.Result == nil || x.p.Status == plan.OutOfMemory {
		return text + fmt.Sprintf(" %s does not fit in this model's memory (%s per GPU).", x.label, gib(x.p.Estimate.PeakMemory))
	}
	bi, xi := best.Result.Iteration, x.p.Result.Iteration
	text += fmt.Sprintf(" It runs an iteration in %s, against %s (%.2f× as fast; MFU %s against %s).",
		roundTime(bi), roundTime(xi), xi.Seconds()/bi.Seconds(), pct(best.Result.MFU), pct(x.p.Result.MFU))
	return text
}

// meshLayout is the torus axes a TPU plan's mesh fills, innermost first
// ("xyz" by default), or "" off a slice.
func meshLayout(p scenario.Parallel) string {
	if !p.Mesh.Set() {
		return ""
	}
	o, _ := p.Mesh.Order()
	return string([]byte{'x' + byte(o[0]), 'x' + byte(o[1]), 'x' + byte(o[2])})
}

// scheduleName is a plan's schedule with its chunks: "interleaved v4".
func scheduleName(p scenario.Parallel) string {
	if p.Schedule == "interleaved" {
		return fmt.Sprintf("interleaved v%d", p.VirtualStages)
	}
	return p.Schedule
}

// layerSplit names a plan's split of the layers over its model stages.
func layerSplit(p scenario.Parallel) string {
	if p.FirstLastFewer == 0 {
		return "the equal layer split"
	}
	return fmt.Sprintf("%d layer(s) fewer on the first and last model stages", p.FirstLastFewer)
}
