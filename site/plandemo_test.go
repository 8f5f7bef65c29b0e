package site

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"paraplay/sim/plan"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
)

// planBlock is a planner question small enough for a test: Llama 3 8B with
// 2,048-token sequences on two servers of four H100s, a global batch of 16
// sequences (dp 4 × 4 microbatches), the space of plan.ExampleRun.
const planBlock = `model: {preset: llama3-8b, seq_len: 2048}
cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4}
parallel: {dp: 4, tp: 2, microbatches: 4}
`

func parseBlock(t *testing.T, yaml string) scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPlanDemo checks the embedded planner against the planner itself and
// against an independent run: the caption names plan.Run's best plan, with
// the iteration and peak memory that run.Simulate gives that plan; the
// poster is the finished scatter; the live demo opens the plan tab.
func TestPlanDemo(t *testing.T) {
	s := parseBlock(t, planBlock)
	d, err := newDemo("test", 1, s, demoView{Speed: 1, Plan: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := plan.ForScenario(s)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GlobalBatch != 16 || cfg.GPUs() != 8 {
		t.Fatalf("question: %d sequences on %d GPUs; want 16 on 8", cfg.GlobalBatch, cfg.GPUs())
	}
	r, err := plan.Run(cfg, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	best := r.Plans[0]
	tl, err := run.Simulate(best.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	var peak int64
	for _, m := range tl.Memory {
		peak = max(peak, int64(m.Peak))
	}
	caption := d.metrics()
	t.Logf("caption: %s", caption)
	for _, want := range []string{
		"best: " + best.Label() + " — iteration " + roundTime(tl.End),
		"peak " + gib(best.Result.PeakMemory),
		count(r.Progress.Simulated) + " simulated",
		"why the others lost: ",
		"the block's own plan: ",
	} {
		if !strings.Contains(caption, want) {
			t.Errorf("caption lacks %q", want)
		}
	}
	if got, want := int64(best.Result.PeakMemory), peak; got != want {
		t.Errorf("best plan's peak %d bytes; its own run records %d", got, want)
	}
	if svg := string(d.poster.SVG); !strings.Contains(svg, "best: ") || !strings.Contains(svg, "plans screened") {
		t.Errorf("poster is not the finished scatter: %.200s…", svg)
	}
	if q := d.query(true); !strings.Contains(q, "plan=1") || !strings.Contains(q, "embed=1") {
		t.Errorf("live demo %q does not open the plan tab", q)
	}
}

// TestPlanDemoRefuses checks that a block the planner cannot plan is an
// error naming what it needs.
func TestPlanDemoRefuses(t *testing.T) {
	s := parseBlock(t, "gpus: 4\ncluster: {network: ideal}\nmodel:\n  synthetic: {forward: 1ms, backward_input: 1ms, backward_weight: 1ms}\nparallel: {pp: 4, microbatches: 8}\n")
	if _, err := newDemo("test", 1, s, demoView{Speed: 1, Plan: true}); err == nil || !strings.Contains(err.Error(), "view.plan") {
		t.Errorf("error %v; want one naming view.plan", err)
	}
}

// TestComparePlans checks the comparison table against simulations of the
// same plans: the peak memory is the simulated peak, the iteration bound
// is no more than the simulated iteration, and the MFU bound no less than
// the simulated MFU (the same FLOPs over a shorter time).
func TestComparePlans(t *testing.T) {
	s := parseBlock(t, planBlock)
	rows, err := comparePlans(s, []compareRow{
		{"as written", ""},
		{"pipeline", "tp=1&pp=2&dp=4&microbatches=4&schedule=1f1b"},
		{"zero-3", "zero=3&recompute=selective"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		tl, err := run.Simulate(r.s)
		if err != nil {
			t.Fatal(err)
		}
		sum := tl.Summarize()
		var peak int64
		for _, m := range tl.Memory {
			peak = max(peak, int64(m.Peak))
		}
		if int64(r.est.PeakMemory) != peak {
			t.Errorf("%s: table peak %d bytes, simulated %d", r.label, r.est.PeakMemory, peak)
		}
		if r.est.LowerBound > tl.End {
			t.Errorf("%s: bound %v above the simulated iteration %v", r.label, r.est.LowerBound, tl.End)
		}
		if r.mfu < sum.MFU*(1-1e-9) {
			t.Errorf("%s: MFU bound %.4f below the simulated MFU %.4f", r.label, r.mfu, sum.MFU)
		}
		t.Logf("%s: bound %v, simulated %v; MFU ≤ %.3f, simulated %.3f", r.label, r.est.LowerBound, tl.End, r.mfu, sum.MFU)
	}
	if rows[1].s.Parallel.PP != 2 || rows[2].s.Parallel.ZeRO != 3 {
		t.Errorf("the rows' changes were not applied: %+v, %+v", rows[1].s.Parallel, rows[2].s.Parallel)
	}
	html := compareHTML(s, rows)
	for _, want := range []string{"<table>", "as written", "pipeline", "tp 1 × cp 1 × pp 2 × dp 4", "llama3-8b on 8 GPUs (h100-sxm)"} {
		if !strings.Contains(html, want) {
			t.Errorf("table lacks %q", want)
		}
	}
	if _, err := comparePlans(s, []compareRow{{"bad", "pp=3"}}); err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Errorf("a plan that does not validate: error %v; want one naming the row", err)
	}
}

// TestCompareView checks the view.compare option's errors.
func TestCompareView(t *testing.T) {
	for _, tt := range []struct{ block, want string }{
		{"gpus: 4\nview:\n  compare: 3\n", "view.compare: want a list"},
		{"gpus: 4\nview:\n  compare:\n    - {set: pp=2}\n", "with a label"},
		{"gpus: 4\nview:\n  plan: maybe\n", "view.plan"},
	} {
		_, _, errs := splitView([]byte(tt.block))
		if len(errs) == 0 || !strings.Contains(errs[0].msg, tt.want) {
			t.Errorf("%q: errors %v; want one containing %q", tt.block, errs, tt.want)
		}
	}
	v, _, errs := splitView([]byte("gpus: 4\nview:\n  plan: true\n  compare:\n    - {label: a, set: \"pp=2\"}\n"))
	if len(errs) > 0 || !v.Plan || len(v.Compare) != 1 || v.Compare[0].Set != "pp=2" {
		t.Errorf("view %+v, errors %v", v, errs)
	}
}

// TestBesideLinks checks view.beside: a link per row to play.html's
// compare mode, the block's run as a= and the row's as b=, and an error
// naming the row when the row's scenario is not valid.
func TestBesideLinks(t *testing.T) {
	v, _, errs := splitView([]byte("gpus: 4\nview:\n  beside:\n    - {label: tree, set: \"algo=tree\"}\n"))
	if len(errs) > 0 || len(v.Beside) != 1 {
		t.Fatalf("view %+v, errors %v", v, errs)
	}
	s := scenario.Default()
	got, err := besideLinks(s, v.Beside)
	if err != nil {
		t.Fatal(err)
	}
	href := got[strings.Index(got, `href="`)+6 : strings.Index(got, `">`)]
	q, err := url.ParseQuery(strings.TrimPrefix(html.UnescapeString(href), "play.html?"))
	if err != nil {
		t.Fatal(err)
	}
	a, b := q.Get("a"), q.Get("b")
	if a != s.Query().Encode() || !strings.Contains(b, "algo=tree") || !strings.Contains(got, "side by side with tree") {
		t.Errorf("link %q: a=%q b=%q; want the block beside algo=tree", got, a, b)
	}
	if _, err := besideLinks(s, []compareRow{{"bad", "gpus=1000"}}); err == nil || !strings.Contains(err.Error(), `view.beside "bad"`) {
		t.Errorf("a row that does not validate: error %v; want one naming view.beside and the row", err)
	}
}
