package site

import (
	"fmt"
	"html"
	"math"
	"strings"

	"paraplay/sim/fault"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
	"paraplay/sim/units"
)

// Chart size in CSS pixels (it scales with the column).
const (
	chartWidth  = 640
	chartHeight = 260
	chartLeft   = 52 // room for the goodput ticks
	chartRight  = 16
	chartTop    = 28 // room for the legend
	chartBottom = 36 // room for the interval ticks
)

// goodputChart draws, for a checkpoint-restart long run, goodput against
// the checkpoint interval from ⅛ to 8× Young's optimum: the simulated runs
// (same failures at every interval) as dots, Daly's closed form as a
// line, Young's √(2·C·MTBF) as a dashed rule. Every number comes from the
// simulator at build time. It returns "" for scenarios without one.
func goodputChart(s scenario.Scenario) (string, error) {
	if !s.Uses("failures") || s.Failures.Duration <= 0 || s.Recovery.Policy != scenario.PolicyCheckpointRestart || s.Failures.RatePerNodeDay <= 0 {
		return "", nil
	}
	l, err := training.NewLong(s, s.Failures.Duration, 0)
	if err != nil {
		return "", err
	}
	mtbf := fault.NewProcess(l.Config.Job.Nodes, l.Config.RatePerNodeDay, l.Config.Mix, 0).MTBF()
	rc := l.Config.Recovery
	young := fault.YoungInterval(rc.CheckpointCost, mtbf)
	points, err := fault.Sweep(l.Config, fault.Intervals(young, 25))
	if err != nil {
		return "", err
	}
	lo, hi := 1.0, 0.0
	for _, p := range points {
		lo, hi = min(lo, p.Goodput, p.Expected), max(hi, p.Goodput, p.Expected)
	}
	lo, hi = math.Floor(lo*20)/20, math.Ceil(hi*20)/20 // 5% steps
	if hi <= lo {
		hi = lo + 0.05
	}
	c := chart{lo: lo, hi: hi, x0: math.Log2(points[0].Interval.Seconds()), x1: math.Log2(points[len(points)-1].Interval.Seconds())}
	return c.svg(points, young, rc, mtbf, days(s.Failures.Duration)), nil
}

// chart maps interval (log₂ seconds) and goodput to pixels.
type chart struct{ lo, hi, x0, x1 float64 }

func (c chart) x(t units.Time) float64 {
	f := (math.Log2(t.Seconds()) - c.x0) / (c.x1 - c.x0)
	return chartLeft + f*(chartWidth-chartLeft-chartRight)
}

func (c chart) y(g float64) float64 {
	f := (g - c.lo) / (c.hi - c.lo)
	return chartHeight - chartBottom - f*(chartHeight-chartTop-chartBottom)
}

func (c chart) svg(points []fault.Point, young units.Time, rc fault.Recovery, mtbf units.Time, span string) string {
	var b strings.Builder
	title := fmt.Sprintf("Goodput against the checkpoint interval over a %s run: simulated dots, Daly's closed form as a line, Young's optimum %s dashed", span, fault.Human(young))
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg" font-size="11" fill="currentColor"><title>%s</title>`,
		chartWidth, chartHeight, html.EscapeString(title), html.EscapeString(title))
	// Goodput ticks every 5%.
	for g := c.lo; g <= c.hi+1e-9; g += 0.05 {
		y := c.y(g)
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="currentColor" stroke-opacity=".15"/><text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%.0f%%</text>`,
			chartLeft, chartWidth-chartRight, y, y, chartLeft-6, y, 100*g)
	}
	// Interval ticks at every fourth point: octaves around Young's.
	for i := 0; i < len(points); i += 4 {
		x := c.x(points[i].Interval)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="currentColor" stroke-opacity=".4"/><text x="%.1f" y="%d" text-anchor="middle">%s</text>`,
			x, x, chartHeight-chartBottom, chartHeight-chartBottom+4, x, chartHeight-chartBottom+16, fault.Human(points[i].Interval))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">checkpoint interval τ (log scale)</text>`, chartWidth-chartRight, chartHeight-4)
	// Daly's closed form, finely sampled.
	var path []string
	first, last := points[0].Interval.Seconds(), points[len(points)-1].Interval.Seconds()
	for i := 0; i <= 120; i++ {
		t := units.Round(first * math.Pow(last/first, float64(i)/120))
		g := fault.DalyGoodput(t, rc.CheckpointCost, rc.HeartbeatTimeout+rc.RestartCost, mtbf)
		path = append(path, fmt.Sprintf("%.1f,%.1f", c.x(t), c.y(g)))
	}
	fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#3b7dd8" stroke-width="2"/>`, strings.Join(path, " "))
	for _, p := range points {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="#e8743b"><title>τ = %s: simulated %.1f%%, Daly %.1f%%</title></circle>`,
			c.x(p.Interval), c.y(p.Goodput), fault.Human(p.Interval), 100*p.Goodput, 100*p.Expected)
	}
	yx := c.x(young)
	fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="currentColor" stroke-dasharray="4 3"/>`, yx, yx, chartTop, chartHeight-chartBottom)
	// Legend.
	fmt.Fprintf(&b, `<circle cx="%d" cy="12" r="3.5" fill="#e8743b"/><text x="%d" y="12" dominant-baseline="middle">simulated, %s run</text>`, chartLeft+6, chartLeft+14, span)
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="12" y2="12" stroke="#3b7dd8" stroke-width="2"/><text x="%d" y="12" dominant-baseline="middle">Daly's closed form</text>`, chartLeft+180, chartLeft+200, chartLeft+206)
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="12" y2="12" stroke="currentColor" stroke-dasharray="4 3"/><text x="%d" y="12" dominant-baseline="middle">Young √(2·C·MTBF) = %s</text>`, chartLeft+330, chartLeft+350, chartLeft+356, fault.Human(young))
	b.WriteString(`</svg>`)
	return b.String()
}
