//go:build !js

package opgraph

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/golden"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
)

// TestVGG16Counts holds VGG-16 to torchvision's published figures
// (torchvision.models.vgg16, IMAGENET1K_V1: 138,357,544 parameters and
// 15.47 GFLOPS, which torchvision counts as multiply-accumulates), and
// GoogLeNet's module 3a to Szegedy et al. 2015's Table 1 (159K
// parameters, 128M operations, i.e. multiply-accumulates).
func TestVGG16Counts(t *testing.T) {
	g, err := VGG16(224)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := VGG16Params(g), int64(138357544); got != want {
		t.Errorf("VGG-16 parameters: got %d, want %d", got, want)
	}
	if got := float64(g.MACs()) / 1e9; got < 15.47*0.99 || got > 15.47*1.01 {
		t.Errorf("VGG-16 forward: got %.3f G multiply-adds, want 15.47 within 1%%", got)
	}
	m := Inception3a()
	if got := m.Params() / 1024; got != 159 {
		t.Errorf("inception 3a: got %d K parameters (of 1,024), want the paper's 159K", got)
	}
	if got := float64(m.MACs()) / 1e6; got < 127.5 || got > 128.5 {
		t.Errorf("inception 3a: got %.2f M multiply-adds, want the paper's 128M", got)
	}
	if n := len(branchesOf(m)); n != 4 {
		t.Errorf("inception 3a: %d branches, want 4", n)
	}
}

// TestFlexFlowDemo runs the article's demo (testdata/vgg16-flexflow.yaml):
// the searched plan splits every convolution by samples and the two
// 4,096-wide dense layers by parameters, beats data parallelism, equals
// the exhaustive optimum; the played plan's iteration is its FlexCost to
// a nanosecond a step; and two runs are byte-identical (golden file).
func TestFlexFlowDemo(t *testing.T) {
	s := strategytest.Load(t, filepath.Join("testdata", "vgg16-flexflow.yaml"))
	g, r, err := FromScenario(&s)
	if err != nil {
		t.Fatal(err)
	}
	gpu, _ := r.check(g)
	plan, cost, walk, _, err := searchResult(g, r, gpu, s)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := searchLinks(s)
	_, ex := FlexExhaustive(g, r.Batch, r.GPUs, gpu, l)
	if cost != ex || cost >= walk[0].Cost {
		t.Errorf("searched %.6g s, exhaustive %.6g s, data parallel %.6g s; want searched = exhaustive < data parallel", cost, ex, walk[0].Cost)
	}
	for i, o := range g.Ops {
		switch {
		case o.Kind == Conv && plan[i] != BySamples:
			t.Errorf("%s split by parameters, want by samples", o.Name)
		case o.Kind == Dense && o.Out == 4096 && plan[i] != ByParams:
			t.Errorf("%s split by samples, want by parameters", o.Name)
		}
	}
	tl := goldenRun(t, s, "vgg16-flexflow.timeline.txt")
	if d := float64(tl.End) - 1e9*cost; d < -float64(4*len(g.Ops)) || d > float64(4*len(g.Ops)) {
		t.Errorf("played %v, FlexCost %.0f ns: want within a few ns an operator", tl.End, 1e9*cost)
	}
	t.Logf("VGG-16, 256 images on 8 H100s: data parallel %.3f ms, searched %.3f ms, walk %v", 1e3*walk[0].Cost, 1e3*cost, walk)
}

// TestDLPlacerDemo runs the article's demo (testdata/inception-dlplacer.yaml):
// on four H100s it uses two (one remote GPU, so no two sends share a link): the played
// placement is its critical path exactly, and faster than one GPU; the
// run is byte-identical to its golden file.
func TestDLPlacerDemo(t *testing.T) {
	s := strategytest.Load(t, filepath.Join("testdata", "inception-dlplacer.yaml"))
	g, r, err := FromScenario(&s)
	if err != nil {
		t.Fatal(err)
	}
	gpu, _ := r.check(g)
	_, cost, _, on, err := searchResult(g, r, gpu, s)
	if err != nil {
		t.Fatal(err)
	}
	tl := goldenRun(t, s, "inception-dlplacer.timeline.txt")
	if d := float64(tl.End) - 1e9*cost; d < -2 || d > 8 {
		t.Errorf("placement %v: played %v, critical path %.0f ns", on, tl.End, 1e9*cost)
	}
	var one float64
	for _, b := range branchesOf(g) {
		one += branchTime(b, r.Batch, gpu).Seconds()
	}
	if one <= tl.End.Seconds() {
		t.Errorf("placed %v, one GPU %.0f ns: want faster", tl.End, 1e9*one)
	}
	t.Logf("placement %v: %v, one GPU %.0f ns, %.3f×", on, tl.End, 1e9*one, one/tl.End.Seconds())
}

// goldenRun simulates s twice, checks the two timelines are the same
// text, and holds it to testdata/name.
func goldenRun(t *testing.T, s scenario.Scenario, name string) *timeline.Timeline {
	t.Helper()
	var tl *timeline.Timeline
	var first string
	for k := range 2 {
		var err error
		if tl, err = (Strategy{}).Simulate(s); err != nil {
			t.Fatal(err)
		}
		if err := tl.Validate(); err != nil {
			t.Fatal(err)
		}
		if text := timelineText(tl); k == 0 {
			first = text
		} else if text != first {
			t.Fatal("the same scenario gave two timelines")
		}
	}
	golden.Check(t, filepath.Join("testdata", name), []byte(first))
	return tl
}

// timelineText is tl's spans and transfers, one a line.
func timelineText(tl *timeline.Timeline) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, end %v\n", tl.Title, tl.End)
	for _, x := range tl.Spans {
		fmt.Fprintf(&b, "span     %-12v %-12v GPU %d %s %s\n", x.Start, x.End, x.GPU, x.Kind, x.Label)
	}
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		fmt.Fprintf(&b, "transfer %-12v %-12v %d→%d %v\n", x.Start, x.End, x.Src, x.Dst, x.Bytes)
	}
	return b.String()
}

// TestSearchCaptions reads the captions of the two demos and of DLPlacer
// on four GPUs, on NVLink and on free links: FlexFlow's names the
// operators split by parameters and holds the played iteration to the
// plan's FlexCost; DLPlacer's holds the module to its critical path where
// no sends share a link, and says what sharing adds where they do.
func TestSearchCaptions(t *testing.T) {
	const dl = "strategy: opgraph\ngraph: {model: inception3a, batch: 128, search: dlplacer}\ncluster: {gpu: h100-sxm, gpus_per_node: "
	for _, c := range []struct{ name, yaml, want, check string }{
		{"flexflow", "strategy: opgraph\ncluster: {gpu: h100-sxm, gpus_per_node: 8}\ngraph: {model: vgg16, batch: 256, search: flexflow, search_steps: 3000}\n",
			"split by parameters (output channels, the output all-gathered): fc6, fc7;", "FlexFlow plan's iteration"},
		{"dlplacer 2", dl + "2}\n", "best of all 16 assignments", "DLPlacer placement's critical path"},
		{"dlplacer 4", dl + "4}\n", "best of all 256 assignments", ""},
		{"dlplacer 4 ideal", dl + "4, network: ideal}\n", "best of all 256 assignments", "DLPlacer placement's critical path"},
	} {
		t.Run(c.name, func(t *testing.T) {
			parts, _ := captionSays(t, c.yaml, c.want)
			if c.check != "" {
				strategytest.Checked(t, parts, c.check)
			}
		})
	}
}
