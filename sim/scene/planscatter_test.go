package scene

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"paraplay/sim/plan"
	"paraplay/sim/scenario"
)

func planResult(t *testing.T) *plan.Result {
	t.Helper()
	r, err := plan.Run(plan.Config{Model: scenario.Model{Preset: "llama3-8b", SeqLen: 2048},
		Cluster: scenario.Cluster{GPU: "h100-sxm", Nodes: 2, GPUsPerNode: 4}, GlobalBatch: 16, MaxMicroBatch: 2}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPlanScatter: every plan has a square the pointer finds, the best is
// outlined, the front is a staircase (each point faster and hungrier than
// the one before), and the HBM line is drawn.
func TestPlanScatter(t *testing.T) {
	r := planResult(t)
	dl := PlanScatter(r.Plans, r.Progress, Options{Width: 960, Height: 600})
	squares := map[string]Item{}
	var hbm, best bool
	for _, it := range dl.Items {
		switch {
		case it.ID == "plan/hbm":
			hbm = true
		case it.ID == "plan/best":
			best = true
		case it.Shape == Rect && strings.Trim(strings.TrimPrefix(it.ID, "plan/"), "0123456789") == "":
			squares[it.ID] = it
		}
	}
	drawn := 0 // plans far out of memory have no bound and no square (plan.BoundMemory)
	for _, p := range r.Plans {
		if p.Iteration() > 0 || p.Status == plan.Dominated {
			drawn++
		}
	}
	if len(squares) != drawn || drawn < len(r.Plans)/2 || !hbm || !best {
		t.Errorf("%d squares for %d plans with a time (of %d), HBM line %v, best label %v", len(squares), drawn, len(r.Plans), hbm, best)
	}
	b := r.Plans[0]
	sq := squares["plan/"+strconv.Itoa(b.Index())]
	if id, ok := HitTest(dl, sq.X+sq.W/2, sq.Y+sq.H/2); !ok || id != "plan/"+strconv.Itoa(b.Index()) {
		t.Errorf("HitTest on the best plan's square = %q, %v", id, ok)
	}
	front := ParetoFront(r.Plans)
	if len(front) == 0 || front[len(front)-1] != b && front[len(front)-1].Result.Iteration != b.Result.Iteration {
		t.Errorf("the front does not end at the fastest plan")
	}
	for i := 1; i < len(front); i++ {
		if front[i].Estimate.PeakMemory < front[i-1].Estimate.PeakMemory || front[i].Result.Iteration >= front[i-1].Result.Iteration {
			t.Errorf("front point %d does not trade memory for time", i)
		}
	}
	if d := DescribePlan(b); !strings.Contains(d, "GiB per GPU") || !strings.Contains(d, "MFU") {
		t.Errorf("DescribePlan(best) = %q", d)
	}
	var svg bytes.Buffer
	if err := WriteSVG(&svg, dl); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("PARAPLAY_SVG_DIR"); dir != "" { // to look at it
		os.WriteFile(filepath.Join(dir, "plan-scatter.svg"), svg.Bytes(), 0o644)
	}
	dark := PlanScatter(r.Plans, r.Progress, Options{Theme: ThemeDark})
	if dark.Background == dl.Background {
		t.Error("dark theme kept the light background")
	}
}

// TestPlanScatterNothingAboveTheBest: every plan that fits is at best as
// fast as the best one, so no such square may sit below the best's on the
// time axis (up is slower; plans out of memory may well be faster). Dominated ZeRO-1 plans are never simulated; their own lower
// bound can be under the best time, so the plot places them at their
// ZeRO-2 twin's time, which the simulator gives them too.
func TestPlanScatterNothingAboveTheBest(t *testing.T) {
	r := planResult(t)
	dl := PlanScatter(r.Plans, r.Progress, Options{Width: 960, Height: 600})
	y := map[string]float64{}
	for _, it := range dl.Items {
		if it.Shape == Rect && strings.Trim(strings.TrimPrefix(it.ID, "plan/"), "0123456789") == "" {
			if _, seen := y[it.ID]; !seen {
				y[it.ID] = it.Y + it.H/2
			}
		}
	}
	best := y["plan/"+strconv.Itoa(r.Plans[0].Index())]
	dominated := 0
	for _, p := range r.Plans {
		if p.Status == plan.Dominated {
			dominated++
		}
		if c := y["plan/"+strconv.Itoa(p.Index())]; p.Fits && c > best+0.5 {
			t.Errorf("%s (%s) is drawn faster than the best: y %.1f below the best's %.1f", p.Label(), p.Status, c, best)
		}
	}
	if dominated == 0 {
		t.Error("the space has no dominated plan: the test checks nothing")
	}
}

// TestPlanScatterNarrow: on a canvas as narrow as an article's embedded
// planner, the progress bar and its label leave the title's row rather
// than overlap the title.
func TestPlanScatterNarrow(t *testing.T) {
	r := planResult(t)
	for _, w := range []float64{630, 960, 1280} {
		dl := PlanScatter(r.Plans, r.Progress, Options{Width: w, Height: 400})
		var title, phase, bar Item
		for _, it := range dl.Items {
			switch it.ID {
			case "plan/title":
				title = it
			case "plan/phase":
				phase = it
			case "plan/progress":
				bar = it
			}
		}
		titleEnd := title.X + textWidth(title.Text, title.Size)
		phaseStart := phase.X - textWidth(phase.Text, phase.Size)
		sameRow := bar.Y < title.Y
		if sameRow && titleEnd > phaseStart {
			t.Errorf("width %v: the title ends at x %.0f, over the phase label from x %.0f", w, titleEnd, phaseStart)
		}
	}
}
