package scene

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"paraplay/sim/plan"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// PlanScatter draws a plan search (package plan) as a scatter: one square
// per plan at (peak memory per GPU, iteration time), coloured by strategy
// family (the dimensions it splits along), the GPU's HBM as a vertical
// line, and the Pareto front of the simulated plans — none faster with less
// memory — joined by a line. Simulated plans are filled; plans known only
// by a lower bound on their time (ruled out, dominated, out of memory) are
// hollow, drawn at that bound (a plan past plan.BoundMemory GPU memories
// has none and is only counted). A progress bar on top shows the search's
// phase. Each plan's square has the ID "plan/<index>" (Plan.Index), which
// HitTest returns; the best plan is outlined.
func PlanScatter(plans []*plan.Plan, pr plan.Progress, o Options) DrawList {
	dl := planScatter(plans, pr, o)
	if o.Theme == ThemeDark {
		darken(&dl)
	}
	return dl
}

func planScatter(plans []*plan.Plan, pr plan.Progress, o Options) DrawList {
	w, h := o.size()
	dl := DrawList{Width: w, Height: h, Background: colBackground}
	text := func(id string, x, y, size float64, c Color, a Anchor, s string) {
		dl.Items = append(dl.Items, Item{ID: id, Shape: Text, X: x, Y: y, Size: size, Fill: c, Anchor: a, Text: s})
	}
	bottom := planHeader(&dl, plans, pr, w, o.Compact)
	if len(plans) == 0 {
		return dl
	}
	fams := families(plans)
	// The axis titles sit 10 px above the plot: keep them 26 px under the
	// header's progress bar, which moves down when the title is wide.
	ax := newAxes(plans, 70, max(60, bottom+36), w-250, h-50)
	if o.Compact { // the legend goes under the plot, the text is 12 px
		ax = newAxes(plans, 62, 96, w-58, h-50-compactLegendHeight(fams))
		ax.size = 12
	}
	ax.draw(&dl)
	var best *plan.Plan
	drawn := map[squareKey]bool{} // a compact frame's squares, by pixel
	for _, p := range plans {
		if p.Status == plan.Best {
			best = p
		}
		if ax.time(p) == 0 {
			continue // far out of memory: no bound, nowhere to draw it (plan.BoundMemory)
		}
		x, y := ax.at(p)
		c := familyColor(fams, p.Family)
		if o.Compact {
			// Thousands of plans on 340 px: a square the same as one
			// already on its pixel adds only bytes to the poster.
			k := squareKey{int(math.Round(x)), int(math.Round(y)), c, p.Result != nil}
			if drawn[k] {
				continue
			}
			drawn[k] = true
		}
		it := Item{ID: "plan/" + strconv.Itoa(p.Index()), Shape: Rect, X: x - 3, Y: y - 3, W: 6, H: 6}
		if p.Result != nil {
			it.Fill = c
		} else {
			it.Stroke, it.StrokeWidth = c, 1
		}
		dl.Items = append(dl.Items, it)
	}
	front := ParetoFront(plans)
	for i := 1; i < len(front); i++ {
		x1, y1 := ax.at(front[i-1])
		x2, y2 := ax.at(front[i])
		dl.Items = append(dl.Items, Item{ID: "plan/front", Shape: Line, X: x1, Y: y1, X2: x2, Y2: y2, Stroke: colText, StrokeWidth: 1.5})
	}
	for _, p := range front {
		x, y := ax.at(p)
		dl.Items = append(dl.Items, Item{ID: "plan/" + strconv.Itoa(p.Index()), Shape: Rect, X: x - 4, Y: y - 4, W: 8, H: 8,
			Fill: familyColor(fams, p.Family), Stroke: colText, StrokeWidth: 1.5})
	}
	if best != nil {
		x, y := ax.at(best)
		dl.Items = append(dl.Items, Item{ID: "plan/" + strconv.Itoa(best.Index()), Shape: Rect, X: x - 6, Y: y - 6, W: 12, H: 12,
			Stroke: colPlayhead, StrokeWidth: 2})
		text("plan/best", x+10, y+4, 12, colText, AnchorStart, fmt.Sprintf("best: %.3g s", best.Result.Iteration.Seconds()))
	}
	if o.Compact {
		compactLegend(&dl, fams, w, h)
	} else {
		legend(&dl, fams, w)
	}
	return dl
}

// squareKey is a plan's square as drawn: its pixel, colour and fill.
type squareKey struct {
	x, y   int
	c      Color
	filled bool
}

// planHeader writes the search's counts and its progress bar. The bar sits
// at the right of the counts; on a canvas too narrow for both (an
// article's embedded planner), it moves to a row of its own under them,
// above the plot (textWidth estimates the title), and a compact frame
// splits the counts over two lines. It returns the bar's bottom edge.
func planHeader(dl *DrawList, plans []*plan.Plan, pr plan.Progress, w float64, compact bool) float64 {
	text := func(id string, x, y, size float64, c Color, a Anchor, s string) {
		dl.Items = append(dl.Items, Item{ID: id, Shape: Text, X: x, Y: y, Size: size, Fill: c, Anchor: a, Text: s})
	}
	barX, barW, barY := w-236, 220.0, 12.0
	if compact {
		text("plan/title", 12, 22, 14, colText, AnchorStart, fmt.Sprintf("%d of %d plans screened", len(plans), pr.Plans))
		text("plan/counts", 12, 42, 12, colMuted, AnchorStart, fmt.Sprintf("%d OOM · %d ruled out · %d simulated",
			pr.OutOfMemory, pr.Bounded+pr.Dominated, pr.Simulated))
		barX, barW, barY = 100, w-120, 52
	} else {
		title := fmt.Sprintf("%d of %d plans screened: %d out of memory, %d ruled out, %d simulated",
			len(plans), pr.Plans, pr.OutOfMemory, pr.Bounded+pr.Dominated, pr.Simulated)
		text("plan/title", 16, 24, 15, colText, AnchorStart, title)
		if 16+textWidth(title, 15)+90 > barX {
			barY = 32
		}
	}
	dl.Items = append(dl.Items, Item{ID: "plan/progress", Shape: Rect, X: barX, Y: barY, W: barW, H: 12, Stroke: colMuted, StrokeWidth: 1},
		Item{ID: "plan/progress/done", Shape: Rect, X: barX, Y: barY, W: barW * pr.Fraction(), H: 12, Fill: stateStyle[Forward].fill})
	text("plan/phase", barX-8, barY+11, 12, colMuted, AnchorEnd, fmt.Sprintf("%s %d%%", pr.Phase, int(100*pr.Fraction())))
	return barY + 12
}

// ParetoFront lists the simulated plans that fit and that no other such
// plan beats on both iteration time and peak memory, by increasing memory.
func ParetoFront(plans []*plan.Plan) []*plan.Plan {
	var sim []*plan.Plan
	for _, p := range plans {
		if p.Result != nil && p.Fits {
			sim = append(sim, p)
		}
	}
	sort.Slice(sim, func(i, j int) bool {
		a, b := sim[i], sim[j]
		return cmp.Or(cmp.Compare(a.Estimate.PeakMemory, b.Estimate.PeakMemory),
			cmp.Compare(a.Result.Iteration, b.Result.Iteration), cmp.Compare(a.Index(), b.Index())) < 0
	})
	var front []*plan.Plan
	for _, p := range sim {
		if len(front) == 0 || p.Result.Iteration < front[len(front)-1].Result.Iteration {
			front = append(front, p)
		}
	}
	return front
}

// DescribePlan is the inspector's text for a plan: what it is, its figures
// and why it lost.
func DescribePlan(p *plan.Plan) string {
	t := fmt.Sprintf("≥ %.3g s (bound)", p.Estimate.LowerBound.Seconds())
	if p.Result != nil {
		t = fmt.Sprintf("%.3g s, MFU %.1f%%", p.Result.Iteration.Seconds(), 100*p.Result.MFU)
	}
	return fmt.Sprintf("%s — %s, %.1f GiB per GPU. %s", p.Label(), t,
		float64(p.Estimate.PeakMemory)/float64(units.GiB), p.Why)
}

// scatterAxes maps a plan to the plot: memory across, time up.
type scatterAxes struct {
	x0, y0, x1, y1 float64 // the plot box
	memMax, hbm    float64 // GiB
	tMin, tMax     float64 // seconds
	usdPerMTokS    float64 // dollars per million tokens per second of iteration (0: unpriced)
	twins          map[*plan.Plan]*plan.Plan
	size           float64 // of the axes' text
}

// twins maps each dominated (ZeRO-1) plan to its ZeRO-2 twin. The search
// never simulates a dominated plan, and its own lower bound can sit below
// the best plan's time; in the simulator it runs exactly as long as its
// twin (see package plan), so the plot puts it at the twin's time.
func twins(plans []*plan.Plan) map[*plan.Plan]*plan.Plan {
	key := func(s scenario.Scenario) string {
		s.Name, s.Parallel.ZeRO = "", 2
		return s.Query().Encode()
	}
	zero2 := map[string]*plan.Plan{}
	for _, p := range plans {
		if p.Scenario.Parallel.ZeRO == 2 {
			zero2[key(p.Scenario)] = p
		}
	}
	out := map[*plan.Plan]*plan.Plan{}
	for _, p := range plans {
		if p.Status == plan.Dominated {
			if t, ok := zero2[key(p.Scenario)]; ok {
				out[p] = t
			}
		}
	}
	return out
}

// time is the iteration time the plot shows for p: its simulated time, its
// twin's for a dominated plan, else its lower bound.
func (a scatterAxes) time(p *plan.Plan) float64 {
	if t, ok := a.twins[p]; ok && p.Result == nil {
		return max(t.Iteration(), p.Iteration()).Seconds()
	}
	return p.Iteration().Seconds()
}

// newAxes fits the plot to the plans: memory from 0 to 1.5 × HBM (plans
// beyond sit on the right edge), time from just below the fastest to 3×
// it (slower plans sit on the top edge), so the interesting corner fills
// the plot.
func newAxes(plans []*plan.Plan, x0, y0, x1, y1 float64) scatterAxes {
	a := scatterAxes{x0: x0, y0: y0, x1: x1, y1: y1, twins: twins(plans), size: 11}
	a.hbm = float64(plans[0].Estimate.Capacity) / float64(units.GiB)
	for _, p := range plans {
		// Every plan runs on the same GPUs: the rent of a second is the
		// same for all, so the cost axis is the time axis rescaled.
		if usd, tok := p.Rent(); tok > 0 {
			a.usdPerMTokS = usd / tok * 1e6
			break
		}
	}
	a.memMax = 1.5 * a.hbm
	a.tMin = math.Inf(1)
	for _, p := range plans {
		if s := a.time(p); s > 0 {
			a.tMin = min(a.tMin, s)
			a.tMax = max(a.tMax, s)
		}
		if a.hbm == 0 {
			a.memMax = max(a.memMax, float64(p.Estimate.PeakMemory)/float64(units.GiB))
		}
	}
	if math.IsInf(a.tMin, 1) {
		a.tMin, a.tMax = 0, 1
	}
	a.tMax = min(a.tMax, 3*a.tMin)
	a.tMin *= 0.95
	if a.tMax <= a.tMin {
		a.tMax = a.tMin + 1
	}
	return a
}

// at is where plan p's square goes.
func (a scatterAxes) at(p *plan.Plan) (x, y float64) {
	mem := min(float64(p.Estimate.PeakMemory)/float64(units.GiB), a.memMax)
	t := min(max(a.time(p), a.tMin), a.tMax)
	x = a.x0 + (a.x1-a.x0)*mem/a.memMax
	y = a.y1 - (a.y1-a.y0)*(t-a.tMin)/(a.tMax-a.tMin)
	return x, y
}

// draw adds the axes, their ticks and labels, and the HBM line.
func (a scatterAxes) draw(dl *DrawList) {
	line := func(id string, x1, y1, x2, y2 float64, c Color, width float64) {
		dl.Items = append(dl.Items, Item{ID: id, Shape: Line, X: x1, Y: y1, X2: x2, Y2: y2, Stroke: c, StrokeWidth: width})
	}
	text := func(id string, x, y float64, anchor Anchor, s string) {
		dl.Items = append(dl.Items, Item{ID: id, Shape: Text, X: x, Y: y, Size: a.size, Fill: colMuted, Anchor: anchor, Text: s})
	}
	line("plan/axis/x", a.x0, a.y1, a.x1, a.y1, colAxis, 1)
	line("plan/axis/y", a.x0, a.y0, a.x0, a.y1, colAxis, 1)
	for i := 0; i <= 4; i++ {
		mem := a.memMax * float64(i) / 4
		x := a.x0 + (a.x1-a.x0)*float64(i)/4
		line("plan/axis/x/tick", x, a.y1, x, a.y1+4, colAxis, 1)
		text("plan/axis/x/label", x, a.y1+17, AnchorMiddle, fmt.Sprintf("%.0f GiB", mem))
		t := a.tMin + (a.tMax-a.tMin)*float64(i)/4
		y := a.y1 - (a.y1-a.y0)*float64(i)/4
		line("plan/axis/y/tick", a.x0-4, y, a.x0, y, colAxis, 1)
		text("plan/axis/y/label", a.x0-7, y+4, AnchorEnd, fmt.Sprintf("%.3g s", t))
		if a.usdPerMTokS > 0 {
			line("plan/axis/cost/tick", a.x1, y, a.x1+4, y, colAxis, 1)
			text("plan/axis/cost/label", a.x1+7, y+4, AnchorStart, fmt.Sprintf("$%.3g", t*a.usdPerMTokS))
		}
	}
	if a.usdPerMTokS > 0 {
		line("plan/axis/cost", a.x1, a.y0, a.x1, a.y1, colAxis, 1)
		text("plan/axis/cost/title", a.x1, a.y0-10, AnchorMiddle, "$ per M tokens")
	}
	text("plan/axis/x/title", (a.x0+a.x1)/2, a.y1+36, AnchorMiddle, "peak memory per GPU")
	text("plan/axis/y/title", a.x0, a.y0-10, AnchorMiddle, "iteration")
	if a.hbm > 0 {
		x := a.x0 + (a.x1-a.x0)*a.hbm/a.memMax
		for y := a.y0; y < a.y1; y += 10 { // dashed
			line("plan/hbm", x, y, x, min(y+6, a.y1), colPlayhead, 1.5)
		}
		text("plan/hbm/label", x+4, a.y0+10, AnchorStart, fmt.Sprintf("HBM %.0f GiB", a.hbm))
		// The warning zone's edge (timeline.NearFraction): plans right of
		// it fit on paper but leave fragmentation little room.
		x90 := a.x0 + (a.x1-a.x0)*timeline.NearFraction*a.hbm/a.memMax
		for y := a.y0; y < a.y1; y += 8 { // dotted
			line("plan/hbm90", x90, y, x90, min(y+3, a.y1), colNearOOM, 1)
		}
		text("plan/hbm90/label", x90-4, a.y0+10, AnchorEnd, "90%")
	}
}

// families lists the strategy families of the plans, sorted.
func families(plans []*plan.Plan) []string {
	var out []string
	for _, p := range plans {
		if !slices.Contains(out, p.Family) {
			out = append(out, p.Family)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return cmp.Or(cmp.Compare(strings.Count(a, "·"), strings.Count(b, "·")), strings.Compare(a, b)) < 0
	})
	return out
}

// familyPalette colours up to 16 families apart (Tableau 10 and six more).
var familyPalette = [...]Color{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xe1, 0x57, 0x59, 0xff}, {0x76, 0xb7, 0xb2, 0xff},
	{0x59, 0xa1, 0x4f, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff}, {0x1f, 0x3a, 0x93, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
	{0x17, 0xbe, 0xcf, 0xff}, {0x6b, 0x8e, 0x23, 0xff}, {0x9e, 0x4f, 0xd6, 0xff}, {0x55, 0x55, 0x55, 0xff},
}

func familyColor(fams []string, f string) Color {
	return familyPalette[max(0, slices.Index(fams, f))%len(familyPalette)]
}

// compactLegendHeight is the height the compact legend takes under the
// plot: the families three to a row, then two rows of what the marks mean.
func compactLegendHeight(fams []string) float64 {
	return 18*float64((len(fams)+2)/3) + 8 + 2*17
}

// compactLegend is legend for a compact frame: under the plot, in two
// columns (three for the families), with 12-px text.
func compactLegend(dl *DrawList, fams []string, w, h float64) {
	col := (w - 24) / 3
	y := h - compactLegendHeight(fams) + 4
	for i, f := range fams {
		x, row := 12+col*float64(i%3), y+18*float64(i/3)
		dl.Items = append(dl.Items, Item{ID: "plan/legend", Shape: Rect, X: x, Y: row - 9, W: 10, H: 10, Fill: familyPalette[i%len(familyPalette)]},
			Item{ID: "plan/legend", Shape: Text, X: x + 16, Y: row, Size: 12, Fill: colText, Text: truncate(f, 12, col-20)})
	}
	y += 18*float64((len(fams)+2)/3) + 8
	col = (w - 24) / 2
	for i, s := range []string{"filled: simulated", "hollow: bound only", "line: Pareto front", "red box: best"} {
		dl.Items = append(dl.Items, Item{ID: "plan/legend", Shape: Text, X: 12 + col*float64(i%2), Y: y + 17*float64(i/2), Size: 12, Fill: colMuted, Text: s})
	}
}

// legend lists the families on the right, and what filled and hollow mean.
func legend(dl *DrawList, fams []string, w float64) {
	x, y := w-180, 70.0
	for i, f := range fams {
		c := familyPalette[i%len(familyPalette)]
		dl.Items = append(dl.Items, Item{ID: "plan/legend", Shape: Rect, X: x, Y: y - 9, W: 10, H: 10, Fill: c},
			Item{ID: "plan/legend", Shape: Text, X: x + 16, Y: y, Size: 12, Fill: colText, Text: f})
		y += 18
	}
	y += 8
	for _, s := range []string{"filled: simulated", "hollow: lower bound only", "black line: Pareto front", "red box: best"} {
		dl.Items = append(dl.Items, Item{ID: "plan/legend", Shape: Text, X: x, Y: y, Size: 11, Fill: colMuted, Text: s})
		y += 16
	}
}
