package scene_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// simulate runs the scenario file name of sim/scenario/testdata, at
// fidelity unless it is "".
func simulate(t testing.TB, name, fidelity string) *timeline.Timeline {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "scenario", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if fidelity != "" {
		s.Fidelity = fidelity
	}
	return mustSimulate(t, s)
}

// mustSimulate runs s, failing the test on an error.
func mustSimulate(t testing.TB, s scenario.Scenario) *timeline.Timeline {
	t.Helper()
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// bigTraining is Llama 3 70B on nodes × 8 H100s in a fat tree, 1F1B with
// 2·pp microbatches, analytic.
func bigTraining(t testing.TB, nodes, tp, pp, dp int) *timeline.Timeline {
	t.Helper()
	yaml := fmt.Sprintf(`name: Llama 3 70B at scale
model: {preset: llama3-70b}
cluster: {gpu: h100-sxm, nodes: %d, gpus_per_node: 8, network: fat-tree}
fidelity: analytic
parallel: {dp: %d, tp: %d, pp: %d, schedule: 1f1b, microbatches: %d, micro_batch_size: 1, sequence_parallel: true, recompute: selective}
`, nodes, dp, tp, pp, 2*pp)
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return mustSimulate(t, s)
}

func TestTrainingGoldenSVG(t *testing.T) {
	runs := map[string]*timeline.Timeline{
		"llama3-8b-2x8.yaml": simulate(t, "llama3-8b-2x8.yaml", ""),
		"pipeline-1f1b.yaml": simulate(t, "pipeline-1f1b.yaml", ""),
	}
	for _, g := range []struct {
		file, scenario string
		frac           float64
	}{
		{"llama3_8b_2x8_pipeline.svg", "llama3-8b-2x8.yaml", 0.3},
		{"llama3_8b_2x8_gradients.svg", "llama3-8b-2x8.yaml", 0.93},
		{"pipeline_1f1b_warmup.svg", "pipeline-1f1b.yaml", 0.12},
		{"pipeline_1f1b_steady.svg", "pipeline-1f1b.yaml", 0.45},
	} {
		tl := runs[g.scenario]
		checkGoldenSVG(t, g.file, scene.Build(tl, at(tl, g.frac), scene.Options{}))
	}
}

// items indexes a draw list by ID.
func items(dl scene.DrawList) map[string]scene.Item {
	m := make(map[string]scene.Item, len(dl.Items))
	for _, it := range dl.Items {
		m[it.ID] = it
	}
	return m
}

func TestMemoryBarsScaleToCapacity(t *testing.T) {
	tl := simulate(t, "llama3-8b-2x8.yaml", "")
	for _, frac := range []float64{0, 0.3, 0.93} {
		now := at(tl, frac)
		got := items(scene.Build(tl, now, scene.Options{}))
		for _, m := range tl.Memory {
			id := "mem/" + itoa(m.GPU)
			track, ok := got[id]
			if !ok {
				t.Fatalf("no %s", id)
			}
			want := map[string]units.Bytes{
				"parameters": m.Parameters, "gradients": m.Gradients, "optimizer": m.OptimizerStates,
				"buffers": m.Buffers, "activations": m.At(now) - m.Static(),
			}
			bottom := track.Y + track.H
			for cat, bytes := range want {
				seg, ok := got[id+"/"+cat]
				if !ok {
					t.Fatalf("no %s/%s", id, cat)
				}
				if h := float64(bytes) / float64(m.Capacity) * track.H; math.Abs(seg.H-h) > 1e-6 {
					t.Errorf("%s/%s at %.2f: height %.3f, want %.3f", id, cat, frac, seg.H, h)
				}
				if seg.Y+seg.H > bottom+1e-6 {
					t.Errorf("%s/%s hangs below its bar", id, cat)
				}
			}
			if _, ok := got[id+"/oom"]; ok {
				t.Errorf("%s marked OOM with a peak of %v of %v", id, m.Peak, m.Capacity)
			}
		}
		if l, ok := got["mem/limit"]; !ok || math.Abs(l.Y-got["mem/0"].Y) > 1e-9 {
			t.Errorf("HBM line %v, want at the top of the bars", l)
		}
	}
}

// oomTimeline is a two-stage training run whose second GPU needs 11 GiB of
// its 10 (1 GiB over).
func oomTimeline() *timeline.Timeline {
	ms := units.Millisecond
	tl := &timeline.Timeline{Title: "OOM", Fidelity: "detailed", End: 4 * ms, Training: &timeline.Training{Schedule: "gpipe"}}
	for g := range 2 {
		tl.GPUs = append(tl.GPUs, timeline.GPU{ID: g, Name: "GPU " + itoa(g)})
		tl.Spans = append(tl.Spans,
			timeline.Span{GPU: g, Kind: timeline.Forward, Stage: g, Label: "F0", Start: units.Time(g) * ms, End: units.Time(g+1) * ms},
			timeline.Span{GPU: g, Kind: timeline.Backward, Stage: g, Label: "B0", Start: units.Time(3-g) * ms, End: units.Time(4-g) * ms})
		tl.Memory = append(tl.Memory, timeline.Memory{GPU: g, Capacity: 10 * units.GiB,
			Parameters: 2 * units.GiB, Gradients: 2 * units.GiB, OptimizerStates: 4 * units.GiB,
			Activations: []timeline.MemoryPoint{{At: 0, Bytes: units.Bytes(1+2*g) * units.GiB}},
			Peak:        units.Bytes(9+2*g) * units.GiB})
	}
	return tl
}

func TestMemoryOOM(t *testing.T) {
	tl := oomTimeline()
	got := items(scene.Build(tl, units.Millisecond, scene.Options{}))
	red := got["mem/1/oom"].Fill
	if got["mem/1/oom"].Text != "OOM" {
		t.Fatalf("mem/1/oom = %+v, want the text OOM", got["mem/1/oom"])
	}
	if track := got["mem/1"]; track.Stroke != red || track.StrokeWidth <= 0 {
		t.Errorf("mem/1 outline %v, want red %v", track.Stroke, red)
	}
	over, ok := got["mem/1/over"]
	if !ok || over.Fill != red {
		t.Fatalf("mem/1/over = %+v, want a red rect above the line", over)
	}
	if line := got["mem/limit"]; math.Abs(over.Y+over.H-line.Y) > 1e-9 {
		t.Errorf("the red part ends at %.2f, want at the HBM line %.2f", over.Y+over.H, line.Y)
	}
	if want := 1.0 / 10 * got["mem/1"].H; math.Abs(over.H-want) > 1e-6 {
		t.Errorf("the red part is %.2f high, want %.2f (1 GiB over 10)", over.H, want)
	}
	for _, id := range []string{"mem/0/oom", "mem/0/over"} {
		if _, ok := got[id]; ok {
			t.Errorf("%s drawn for a GPU within its HBM", id)
		}
	}
	if got["metrics/peak-memory"].Fill != red || !strings.Contains(got["mem/oom"].Text, "1 GPU") {
		t.Errorf("peak memory %+v and %q: want red, naming 1 GPU", got["metrics/peak-memory"], got["mem/oom"].Text)
	}
}

// TestMemoryNearOOM puts GPU 1 at 9.5 of its 10 GiB (1 GiB of it the
// memory reserve) and GPU 0 at exactly 9: only GPU 1 is in the warning
// zone above 90%, so only its bar is outlined, in amber rather than red,
// the panel names it and the peak turns amber; nothing says OOM.
func TestMemoryNearOOM(t *testing.T) {
	tl := oomTimeline()
	tl.Memory[1].Activations[0].Bytes = units.GiB / 2
	tl.Memory[1].Reserve = timeline.Reserve{Context: 512 * units.MiB, Communicators: 512 * units.MiB}
	tl.Memory[1].Peak = 19 * units.GiB / 2
	got := items(scene.Build(tl, units.Millisecond, scene.Options{}))
	amber := got["mem/1"].Stroke
	if amber == (scene.Color{}) || amber == got["mem/0"].Stroke {
		t.Fatalf("mem/1 outline %v, mem/0 %v: want only GPU 1 outlined", amber, got["mem/0"].Stroke)
	}
	for _, id := range []string{"mem/0/oom", "mem/1/oom", "mem/1/over"} {
		if _, ok := got[id]; ok {
			t.Errorf("%s drawn for a GPU within its HBM", id)
		}
	}
	if alert := got["mem/oom"]; alert.Text != ">90% HBM on 1 GPU" || alert.Fill != amber {
		t.Errorf("panel alert %q in %v, want \">90%% HBM on 1 GPU\" in the outline's %v", alert.Text, alert.Fill, amber)
	}
	if got["metrics/peak-memory"].Fill != amber {
		t.Errorf("peak memory in %v, want amber %v", got["metrics/peak-memory"].Fill, amber)
	}
	if r, want := got["mem/1/reserve"].H, 1.0/10*got["mem/1"].H; math.Abs(r-want) > 1e-6 {
		t.Errorf("the reserve is %.2f high, want %.2f (1 GiB of 10)", r, want)
	}
}

func TestSpanLabelsAndColours(t *testing.T) {
	tl := simulate(t, "pipeline-1f1b.yaml", "")
	dl := scene.Build(tl, at(tl, 0.5), scene.Options{})
	got := items(dl)
	labelled := 0
	for _, it := range dl.Items {
		if !strings.HasPrefix(it.ID, "strip/span/") || strings.HasSuffix(it.ID, "/label") {
			continue
		}
		k, _ := strconv.Atoi(strings.TrimPrefix(it.ID, "strip/span/"))
		sp := tl.Spans[k]
		label, ok := got[it.ID+"/label"]
		if it.W >= 20 && (!ok || label.Text != sp.Label) {
			t.Errorf("%s (%s, %.1fpx wide): label %q, want %q", it.ID, sp.Label, it.W, label.Text, sp.Label)
		}
		if ok {
			labelled++
		}
	}
	if labelled < len(tl.Spans)*3/4 {
		t.Errorf("%d of %d spans labelled", labelled, len(tl.Spans))
	}
	// Neighbouring microbatches of one kind differ in lightness.
	f0, f1 := got["strip/span/0"], got["strip/span/"+itoa(spanIndex(tl, 0, "F1"))]
	if f0.Fill == f1.Fill {
		t.Errorf("F0 and F1 share the fill %v", f0.Fill)
	}
	for _, key := range []string{"legend/forward/label", "legend/backward/label"} {
		if _, ok := got[key]; !ok {
			t.Errorf("no %s", key)
		}
	}
}

func spanIndex(tl *timeline.Timeline, gpu int, label string) int {
	for i, sp := range tl.Spans {
		if sp.GPU == gpu && sp.Label == label {
			return i
		}
	}
	return -1
}

func TestGPUBoxNamesItsOp(t *testing.T) {
	tl := simulate(t, "pipeline-1f1b.yaml", "")
	for _, frac := range []float64{0.05, 0.3, 0.6} {
		now := at(tl, frac)
		got := items(scene.Build(tl, now, scene.Options{}))
		for g := range tl.GPUs {
			sp, ok := scene.SpanAt(tl, g, now)
			if !ok {
				continue
			}
			want := string(sp.Kind) + " " + sp.Label
			if s := got["gpu/"+itoa(g)+"/state"].Text; s != want {
				t.Errorf("gpu/%d/state at %.2f = %q, want %q", g, frac, s, want)
			}
		}
	}
}

func TestTrainingMetricsMatchSummary(t *testing.T) {
	tl := simulate(t, "llama3-8b-2x8.yaml", "")
	sum := tl.Summarize()
	got := items(scene.Build(tl, 0, scene.Options{}))
	var peak units.Bytes
	for _, g := range sum.GPUs {
		peak = max(peak, g.PeakMemory)
	}
	for id, want := range map[string]string{
		"metrics/iteration":   sum.Iteration.String(),
		"metrics/mfu":         strconv.FormatFloat(100*sum.MFU, 'f', 1, 64) + "%",
		"metrics/bubble":      strconv.FormatFloat(100*sum.BubbleFraction, 'f', 1, 64) + "%",
		"metrics/throughput":  strconv.FormatFloat(sum.TokensPerSecond/1e3, 'g', 3, 64) + "k tokens/s",
		"metrics/peak-memory": strconv.FormatFloat(float64(peak)/float64(units.GiB), 'f', 1, 64) + " GiB of 80.0 GiB",
	} {
		if got[id].Text != want {
			t.Errorf("%s = %q, want %q", id, got[id].Text, want)
		}
	}
}

// trainingCases are training runs for the checks that hold for all.
func trainingCases(t testing.TB) map[string]*timeline.Timeline {
	return map[string]*timeline.Timeline{
		"llama detailed": simulate(t, "llama3-8b-2x8.yaml", ""),
		"llama analytic": simulate(t, "llama3-8b-2x8.yaml", taskgraph.Analytic),
		"pipeline":       simulate(t, "pipeline-1f1b.yaml", ""),
		"oom":            oomTimeline(),
		"256 GPUs":       bigTraining(t, 32, 8, 8, 4),
	}
}

func TestTrainingItemsInsideCanvasAndUnique(t *testing.T) {
	for name, tl := range trainingCases(t) {
		frames := scene.NewFrames(tl)
		for _, opt := range []scene.Options{{}, {Width: 320, Height: 200}, {Width: 1920, Height: 1080}} {
			for _, frac := range []float64{0, 0.37, 0.93, 1} {
				dl := frames.Build(at(tl, frac), opt)
				seen := map[string]bool{}
				for _, it := range dl.Items {
					if seen[it.ID] {
						t.Fatalf("%s %v: duplicate ID %q", name, opt, it.ID)
					}
					seen[it.ID] = true
					if !inside(it, dl) {
						t.Errorf("%s %v at %.2f: %q leaves the %v×%v canvas", name, opt, frac, it.ID, dl.Width, dl.Height)
					}
				}
				if !reflect.DeepEqual(dl, scene.Build(tl, at(tl, frac), opt)) {
					t.Errorf("%s %v at %.2f: Frames.Build differs from Build", name, opt, frac)
				}
			}
		}
	}
}

func TestTrainingDeterministic(t *testing.T) {
	a := simulate(t, "llama3-8b-2x8.yaml", "")
	b := simulate(t, "llama3-8b-2x8.yaml", "")
	if !reflect.DeepEqual(scene.Build(a, at(a, 0.4), scene.Options{}), scene.Build(b, at(b, 0.4), scene.Options{})) {
		t.Fatalf("two runs of one scenario draw differently")
	}
}

// TestLargeTrainingShowsStages: 256 GPUs in tp 8 × pp 8 × dp 4 show one
// strip row and one memory bar per stage, for GPUs 0, 8, …, 56, and say so.
func TestLargeTrainingShowsStages(t *testing.T) {
	tl := bigTraining(t, 32, 8, 8, 4)
	got := items(scene.Build(tl, at(tl, 0.4), scene.Options{}))
	for d := range 8 {
		g := itoa(8 * d)
		if got["strip/label/"+g].Text != "stage "+itoa(d) {
			t.Errorf("strip/label/%s = %q, want %q", g, got["strip/label/"+g].Text, "stage "+itoa(d))
		}
		if _, ok := got["mem/"+g]; !ok {
			t.Errorf("no memory bar for GPU %s", g)
		}
	}
	rows := 0
	for id := range got {
		if strings.HasPrefix(id, "strip/label/") {
			rows++
		}
	}
	if rows != 8 {
		t.Errorf("%d strip rows, want 8", rows)
	}
	if !strings.Contains(got["strip/note"].Text, "tp rank 0 of each stage, replica 0") {
		t.Errorf("strip/note = %q", got["strip/note"].Text)
	}
}

func BenchmarkBuildTraining(b *testing.B) {
	for _, c := range []struct {
		name string
		tl   *timeline.Timeline
	}{
		{"gpus=16", simulate(b, "llama3-8b-2x8.yaml", "")},
		{"gpus=4096", bigTraining(b, 512, 8, 16, 32)},
	} {
		tl := c.tl
		step := tl.End / 997
		b.Run(c.name+"/Build", func(b *testing.B) {
			b.ReportAllocs()
			var t units.Time
			for b.Loop() {
				scene.Build(tl, t, scene.Options{})
				t = (t + step) % tl.End
			}
		})
		b.Run(c.name+"/Frames", func(b *testing.B) {
			b.ReportAllocs()
			f := scene.NewFrames(tl)
			var t units.Time
			for b.Loop() {
				f.Build(t, scene.Options{})
				t = (t + step) % tl.End
			}
		})
	}
}
