//go:build browser

package browsertest

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"paraplay/sim/plan"
	"paraplay/sim/scenario"
	"paraplay/wasm/playground"
)

// TestTPUSliceControls picks a TPU slice in the playground's form as a
// newcomer would: from eight H100s to a v5e (the form takes the 2x4 slice
// of as many chips), a larger slice (dp follows the chips), a named mesh
// (a wrong one is refused over the canvas, naming parallel.mesh; a right
// one runs, and the degrees it stands for are shown but not sent), then a
// v5p cube and a layout. A hostile address is named and never becomes
// markup.
func TestTPUSliceControls(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?model=llama3-8b&seq_len=1024&gpu=h100-sxm&nodes=1&gpus_per_node=8&dp=8&microbatches=1&autoplay=0")
	waitFor(t, ctx, "the form", `document.documentElement.dataset.app === "started" && !!document.getElementById("c-topology")`)
	ok := func(what, has string) {
		t.Helper()
		waitFor(t, ctx, what, `window.paraplay.current().ok && location.search.includes(`+jsString(has)+`)`)
	}
	setControl(t, ctx, "gpu", "tpu-v5e")
	ok("the v5e slice", "topology=2x4")
	if got := eval[string](t, ctx, `[...document.getElementById("c-topology").options].map(o => o.value).join()`); got != ",1x1,2x2,2x4,4x4,4x8,8x8,8x16,16x16" {
		t.Errorf("v5e's slices: %s", got)
	}
	for _, name := range []string{"nodes", "gpus_per_node", "link"} {
		if !eval[bool](t, ctx, `document.getElementById("c-`+name+`").closest(".row").classList.contains("inactive")`) {
			t.Errorf("%s is not greyed out on a slice", name)
		}
	}
	setControl(t, ctx, "topology", "4x4")
	ok("the 4x4 slice", "dp=16")
	time.Sleep(time.Second)
	screenshot(t, ctx, "paraplay-tpu-v5e-4x4.png")

	// A mesh of 4 chips on 16 is refused, naming the field, over the canvas.
	setControl(t, ctx, "mesh_model", "4")
	waitFor(t, ctx, "the refusal", `window.paraplay.state === "error"`)
	if st := state(t, ctx); !strings.Contains(st.Error, "parallel.mesh") || !strings.Contains(st.Error, "16 chips") {
		t.Errorf("error %q does not name parallel.mesh and the 16 chips", st.Error)
	}
	screenshot(t, ctx, "paraplay-tpu-mesh-refused.png")
	setControl(t, ctx, "mesh_fsdp", "4")
	ok("the fsdp 4 × model 4 mesh", "mesh_fsdp=4")
	if got := eval[string](t, ctx, `["dp","tp","zero"].map(n => document.getElementById("c-"+n).disabled + ":" + document.getElementById("c-"+n).value).join()`); got != "true:4,true:4,true:3" {
		t.Errorf("dp, tp, zero under the mesh: %s, want disabled and 4, 4, 3", got)
	}
	// A third generation, then a cube of it: the mesh's data axis follows the chips.
	setControl(t, ctx, "gpu", "tpu-v5p")
	ok("v5p", "gpu=tpu-v5p")
	setControl(t, ctx, "topology", "4x4x4")
	ok("the v5p cube", "mesh_data=4")
	setControl(t, ctx, "mesh_layout", "zxy")
	ok("the layout", "mesh_layout=zxy")
	time.Sleep(time.Second)
	screenshot(t, ctx, "paraplay-tpu-v5p-mesh.png")
	eval[bool](t, ctx, `(document.getElementById("c-topology").scrollIntoView(), true)`)
	screenshot(t, ctx, "paraplay-tpu-form.png")
	eval[bool](t, ctx, `(document.getElementById("c-mesh_data").scrollIntoView(), true)`)
	screenshot(t, ctx, "paraplay-tpu-mesh-form.png")
	// Back to GPUs: servers of 8 as many as the chips, the mesh's plan written out.
	setControl(t, ctx, "gpu", "h100-sxm")
	ok("GPUs again", "gpus_per_node=8")
	if q := eval[string](t, ctx, `location.search`); !strings.Contains(q, "nodes=8") || !strings.Contains(q, "dp=16") || strings.Contains(q, "mesh_") {
		t.Errorf("back on GPUs: %s; want 8 nodes, dp 16 and no mesh", q)
	}
	noConsoleErrors(t, con)

	// A hostile address: named, bounded, never markup.
	ctx2, con2 := browser(t)
	for _, tc := range []struct{ query, names string }{
		{"topology=%3Cb%3E4x4%3C/b%3E", "topology"},
		{"topology=" + strings.Repeat("4x", 5000), "topology"},
		{"topology=4x4&mesh_model=4&mesh_layout=%3Cb%3E" + strings.Repeat("q", 5000), "mesh_layout"},
	} {
		open(t, ctx2, base, "play.html?model=llama3-8b&gpu=tpu-v5e&"+tc.query)
		waitFor(t, ctx2, "the error state", `window.paraplay.state === "error"`)
		if st := state(t, ctx2); !strings.Contains(st.Error, tc.names) || len(st.Error) > 1000 {
			t.Errorf("error (%d bytes) %q; want %s named in under 1,000 bytes", len(st.Error), st.Error, tc.names)
		}
	}
	if n, err := chromedp.Run(ctx2, chromedp.Evaluate[int](`document.querySelectorAll("b").length`)); err != nil || n != 0 {
		t.Errorf("URL text became markup: %d <b> elements (%v)", n, err)
	}
	screenshot(t, ctx2, "paraplay-tpu-bad-address.png")
	noConsoleErrors(t, con2)
}

// tpuPlanPage is the article's layout demo: Megatron 7.5B on a 16x2 v5e
// slice, two sequences a step, so most plans must split the model and
// where its axes go decides the step.
const tpuPlanPage = "model=megatron-7.5b&gpu=tpu-v5e&topology=16x2&mesh_fsdp=2&mesh_model=16&microbatches=1"

// TestTPUPlanTab searches the plans of a TPU slice in the plan tab: the
// browser lays each mesh under the orders of the torus axes as the
// command-line planner does, finds the same best plan (its mesh and its
// layout, yxz: the model axis on y first) in the same time, and clicking it
// runs it, its layout written as the form's select names it (yx).
func TestTPUPlanTab(t *testing.T) {
	q, _ := url.ParseQuery(tpuPlanPage)
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := playground.PlanConfig(s)
	if err != nil {
		t.Fatal(err)
	}
	host, err := plan.Run(cfg, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := playground.PlanQuery(host.Plans[0])
	t.Logf("host: best %s in %v (%s)", host.Plans[0].Label(), host.Plans[0].Iteration(), want)
	if !strings.Contains(want, "mesh_layout=yxz") {
		t.Fatalf("the host's best plan %s is not laid out yxz; the test expects the layout search to matter", want)
	}

	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?"+tpuPlanPage+"&autoplay=0")
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Click(`#plan-start`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the search to start", `window.paraplay.planState().active && window.paraplay.planState().shown`)
	waitFor(t, ctx, "the search to end", `window.paraplay.planState().phase === "done" && window.paraplay.planState().bestX > 0`)
	st := eval[map[string]any](t, ctx, `window.paraplay.planState()`)
	t.Logf("browser search: %v in %v", st, time.Since(start).Round(time.Millisecond))
	if got, want := st["plans"].(float64), float64(host.Progress.Plans); got != want {
		t.Errorf("the browser enumerated %v plans, the host %v", got, want)
	}
	if got, want := st["best"].(float64), host.Plans[0].Iteration().Seconds(); got != want {
		t.Errorf("best %v s in the browser, %v s on the host", got, want)
	}
	waitFor(t, ctx, "a frame of the scatter", `window.paraplay.frames > 0`)
	screenshot(t, ctx, "paraplay-tpu-plan-tab.png")
	clickBestPlan(t, ctx)
	waitFor(t, ctx, "the picked plan to run", `window.paraplay.planState().pickedN === 1 && window.paraplay.current().ok &&
		location.search.includes("mesh_layout=yx")`)
	if got := eval[string](t, ctx, `window.paraplay.planState().picked`); got != want {
		t.Errorf("picked %s, the host's best is %s", got, want)
	}
	after := eval[string](t, ctx, `window.paraplay.current().query`)
	for _, kv := range []string{"mesh_seq=2", "mesh_model=8", "mesh_fsdp=2", "mesh_layout=yx"} {
		if !strings.Contains("&"+after+"&", "&"+kv+"&") {
			t.Errorf("the scenario on show, %s, lacks %s", after, kv)
		}
	}
	if v := eval[string](t, ctx, `document.getElementById("c-mesh_layout").value`); v != "yx" {
		t.Errorf("the layout select shows %q, want yx", v)
	}
	time.Sleep(time.Second)
	screenshot(t, ctx, "paraplay-tpu-plan-picked.png")
	noConsoleErrors(t, con)
}
