package site

import (
	"errors"
	"fmt"
	"html"
	"net/url"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// compareRow is one plan of a comparison table (view.compare): a label and
// the URL parameters that turn the block's scenario into the plan, e.g.
// "pp=8&dp=256&microbatches=8" ("" for the block's own plan).
type compareRow struct {
	Label string
	Set   string
}

// decodeCompare reads view.compare: a list of {label, set}.
func decodeCompare(v *yaml.Node) ([]compareRow, error) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, errors.New(`want a list of {label: …, set: "pp=8&dp=256"}`)
	}
	var rows []compareRow
	for _, item := range v.Content {
		var r struct {
			Label string `yaml:"label"`
			Set   string `yaml:"set"`
		}
		if err := item.Decode(&r); err != nil || strings.TrimSpace(r.Label) == "" {
			return nil, fmt.Errorf("line %d: want {label: …, set: …} with a label", item.Line)
		}
		if _, err := url.ParseQuery(r.Set); err != nil {
			return nil, fmt.Errorf("line %d: set: %v", item.Line, err)
		}
		rows = append(rows, compareRow{Label: r.Label, Set: r.Set})
	}
	return rows, nil
}

// planRow is a row of the table, worked out.
type planRow struct {
	label string
	s     scenario.Scenario
	est   training.Estimate
	mfu   float64 // model FLOPs per second over peak at the lower bound
}

// comparePlans works out every row of a comparison table with the
// planner's screen, training.Estimator.Estimate: each plan's exact peak memory
// (the bytes a simulation would record) and a lower bound on its iteration
// (the longest path through its pipeline with free messages and free
// data-parallel collectives, plus the optimizer step). No simulation runs,
// which is what keeps a table of 16,384-GPU plans to milliseconds at build
// time. The MFU column is the model FLOPs of the iteration
// (workload.IterationFLOPs, the same count the simulator's MFU uses) over
// the lower bound: an upper bound on the plan's MFU.
func comparePlans(base scenario.Scenario, rows []compareRow) ([]planRow, error) {
	est := training.NewEstimator()
	var out []planRow
	for _, r := range rows {
		s, err := applySet(base, r.Set)
		if err != nil {
			return nil, fmt.Errorf("view.compare %q: %w", r.Label, err)
		}
		e, err := est.Estimate(s)
		if err != nil {
			return nil, fmt.Errorf("view.compare %q: %w", r.Label, err)
		}
		mfu, err := mfuAt(s, e.LowerBound)
		if err != nil {
			return nil, fmt.Errorf("view.compare %q: %w", r.Label, err)
		}
		out = append(out, planRow{label: r.Label, s: s, est: e, mfu: mfu})
	}
	return out, nil
}

// applySet is base with the URL parameters of set applied on top.
func applySet(base scenario.Scenario, set string) (scenario.Scenario, error) {
	q := base.Query()
	over, err := url.ParseQuery(set)
	if err != nil {
		return scenario.Scenario{}, err
	}
	for k, v := range over {
		q[k] = v
	}
	return scenario.FromQuery(q)
}

// mfuAt is the MFU of s's iteration if it took t: model FLOPs over t and
// the GPUs' peak.
func mfuAt(s scenario.Scenario, t units.Time) (float64, error) {
	m, err := s.Model.Resolve()
	if err != nil {
		return 0, err
	}
	gpu, err := hw.LookupGPU(s.Cluster.GPU)
	if err != nil {
		return 0, err
	}
	p := s.Parallel
	flops := workload.IterationFLOPs(m, p.DP*p.Microbatches*p.MicroBatchSize, workload.Recompute(p.Recompute)).Model()
	return flops / t.Seconds() / (gpu.PeakFLOPS * float64(s.NumGPUs())), nil
}

// compareHTML renders the table and its caption.
func compareHTML(base scenario.Scenario, rows []planRow) string {
	esc := html.EscapeString
	var b strings.Builder
	b.WriteString(`<figure class="plan-table"><table><thead><tr><th>plan</th><th>peak memory per GPU</th>` +
		`<th>iteration at least</th><th>MFU at most</th><th>bound on the busiest GPU: compute · blocking comm. · waiting · optimizer</th></tr></thead><tbody>`)
	for _, r := range rows {
		p := r.s.Parallel
		layout := fmt.Sprintf("tp %d × cp %d × pp %d × dp %d, %s", p.TP, p.CP, p.PP, p.DP, p.Schedule)
		if p.Schedule == "interleaved" {
			layout += fmt.Sprintf(" v %d", p.VirtualStages)
		}
		layout += fmt.Sprintf(", b %d × m %d, ZeRO-%d, recompute %s", p.MicroBatchSize, p.Microbatches, p.ZeRO, p.Recompute)
		mem := gib(r.est.PeakMemory)
		switch {
		case r.est.OOM():
			mem += " — out of memory"
		case r.est.NearOOM():
			mem += " — over 90% of HBM"
		}
		e := r.est
		fmt.Fprintf(&b, "<tr><td>%s<br><small>%s</small></td><td>%s</td><td>%s</td><td>%s</td><td>%s · %s · %s · %s</td></tr>\n",
			esc(r.label), esc(layout), esc(mem), esc(roundTime(e.LowerBound)), esc(pct(r.mfu)),
			esc(roundTime(e.Compute)), esc(roundTime(e.Blocking)), esc(roundTime(e.Wait)), esc(roundTime(e.Optimizer)))
	}
	title := fmt.Sprintf("%s on %s GPUs (%s)", base.Model.Preset, count(base.NumGPUs()), base.Cluster.GPU)
	if base.Name != "" && base.Name != scenario.Default().Name {
		title = base.Name
	}
	fmt.Fprintf(&b, `</tbody></table><figcaption><strong>%s</strong>. Every figure computed at build time by the planner's screen `+
		`(run.Estimator): the exact peak memory per GPU against %s of HBM, and a lower bound on the iteration with free messages `+
		`and free data-parallel collectives; MFU at most is the model FLOPs over that bound.</figcaption></figure>`+"\n",
		esc(title), esc(gib(rows[0].est.Capacity)))
	return b.String()
}
