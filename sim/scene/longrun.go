package scene

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"paraplay/sim/fault"
	"paraplay/sim/units"
)

// longBand is one row of the long-run view: a category of wall time.
type longBand struct {
	key, label string
	color      Color
}

// longBands are the rows, useful work first. Degraded is the part of a
// stretch of training that ran below healthy speed.
var longBands = []longBand{
	{"useful", "useful work", Color{0x2e, 0x7d, 0x32, 0xff}},
	{fault.PhaseLost, "lost work", Color{0xd6, 0x27, 0x28, 0xff}},
	{fault.PhaseDetection, "detection", Color{0xf5, 0xb7, 0x00, 0xff}},
	{fault.PhaseRestart, "restart", Color{0x7b, 0x3f, 0xa0, 0xff}},
	{fault.PhaseReconfigure, "reconfigure", Color{0x1f, 0x77, 0xb4, 0xff}},
	{fault.PhaseCheckpoint, "checkpoint writes", Color{0x2a, 0x9d, 0x8f, 0xff}},
	{"degraded", "degraded", Color{0xf2, 0x8e, 0x2b, 0xff}},
}

// causeColors colour failure markers by cause, in the order of
// fault.Causes (a qualitative palette, ColorBrewer Dark2).
var causeColors = []Color{
	{0x1b, 0x9e, 0x77, 0xff}, {0xd9, 0x5f, 0x02, 0xff}, {0x75, 0x70, 0xb3, 0xff},
	{0xe7, 0x29, 0x8a, 0xff}, {0x66, 0xa6, 0x1e, 0xff}, {0xa6, 0x76, 0x1d, 0xff},
}

// causeColor is the marker colour of a failure cause.
func causeColor(cause string) Color {
	for i, c := range fault.Causes {
		if c.Name == cause {
			return causeColors[i%len(causeColors)]
		}
	}
	return colMuted
}

// LongRun draws a long run (package fault) at instant t of its wall time:
// a band per category of time (useful work, lost work, detection,
// restart, reconfiguration, checkpoint writes, degraded running) along an
// axis in days or hours, a marker per failure coloured by its cause, the
// cumulative goodput (useful work so far / wall time so far) as a line,
// the playhead at t, and a panel with the run's headline numbers. Only
// what happened before t is drawn. Each failure's marker has the ID
// "long/failure/<i>" (an index into rep.Hits), which HitTest returns and
// DescribeLong explains.
func LongRun(rep fault.Report, title string, t units.Time, o Options) DrawList {
	dl := longRun(rep, title, t, o)
	if o.Theme == ThemeDark {
		darken(&dl)
	}
	return dl
}

// longLayout places the view on a w×h canvas.
type longLayout struct {
	x0, x1     float64 // the time axis
	top, rowH  float64 // the bands
	gTop, gBot float64 // the goodput chart
	wall       units.Time
}

func (l longLayout) x(t units.Time) float64 {
	if l.wall <= 0 {
		return l.x0
	}
	return l.x0 + (l.x1-l.x0)*float64(t)/float64(l.wall)
}

func (l longLayout) y(goodput float64) float64 {
	return l.gBot - (l.gBot-l.gTop)*min(max(goodput, 0), 1)
}

// LongPanelWidth is the width of the long-run view's panel of numbers.
const LongPanelWidth = 250.0

// longFrame accumulates the items of the long-run view.
type longFrame struct{ dl DrawList }

func (d *longFrame) add(it Item) { d.dl.Items = append(d.dl.Items, it) }

func (d *longFrame) text(id string, x, y, size float64, c Color, a Anchor, s string) {
	d.add(Item{ID: id, Shape: Text, X: x, Y: y, Size: size, Fill: c, Anchor: a, Text: s})
}

func longRun(rep fault.Report, title string, t units.Time, o Options) DrawList {
	w, h := o.size()
	d := &longFrame{DrawList{Width: w, Height: h, Background: colBackground}}
	t = min(max(t, 0), rep.Wall)
	d.text("long/title", 16, 26, 16, colText, AnchorStart, title)
	l := longLayout{x0: 130, x1: max(w-LongPanelWidth-24, 200), top: 64, rowH: min(26, (h-140)/20), wall: rep.Wall}
	l.gTop = l.top + float64(len(longBands)+1)*l.rowH + 24
	l.gBot = h - 48
	d.rows(l)
	d.bands(longSpans(rep, l, t), l)
	d.goodput(rep, l, t)
	d.axis(rep.Wall, l)
	d.failures(rep, l, t)
	x := l.x(t)
	d.add(Item{ID: "playhead", Shape: Line, X: x, Y: l.top, X2: x, Y2: l.gBot, Stroke: colPlayhead, StrokeWidth: 1.5})
	d.text("long/playhead/label", x, l.top-8, 12, colPlayhead, AnchorMiddle, fault.Human(t))
	longPanel(&d.dl, rep, t, w-LongPanelWidth, l.top)
	return d.dl
}

// rows draws the bands' rows and their labels, under the failures row.
func (d *longFrame) rows(l longLayout) {
	for i, b := range longBands {
		y := l.top + float64(i+1)*l.rowH
		d.add(Item{ID: "long/row/" + b.key, Shape: Rect, X: l.x0, Y: y + 2, W: l.x1 - l.x0, H: l.rowH - 4, Fill: colRowShade})
		d.text("long/label/"+b.key, l.x0-8, y+l.rowH*0.68, 12, colText, AnchorEnd, b.label)
	}
	d.text("long/label/failures", l.x0-8, l.top+l.rowH*0.68, 12, colText, AnchorEnd, "failures")
}

// longSpans are, by row (1 + the index in longBands), the stretches of
// each category up to t, merged where they touch on screen.
func longSpans(rep fault.Report, l longLayout, t units.Time) []pixelSpans {
	row := map[string]int{}
	for i, b := range longBands {
		row[b.key] = i + 1
	}
	spans := make([]pixelSpans, len(longBands)+1)
	for _, p := range rep.Phases {
		if p.Start >= t {
			break
		}
		end := min(p.End, t)
		switch p.Kind {
		case fault.PhaseTrain, fault.PhaseLost:
			wall := p.End - p.Start
			ok := p.Useful
			if p.Kind == fault.PhaseLost {
				spans[row[fault.PhaseLost]].add(l.x(p.Start), l.x(end))
			} else if ok > 0 {
				spans[row["useful"]].add(l.x(p.Start), l.x(end))
			}
			if ok < wall { // ran below healthy speed
				spans[row["degraded"]].add(l.x(p.Start), l.x(end))
			}
		default:
			spans[row[p.Kind]].add(l.x(p.Start), l.x(end))
		}
	}
	return spans
}

// bands draws the stretches of longSpans in their rows.
func (d *longFrame) bands(spans []pixelSpans, l longLayout) {
	for i, b := range longBands {
		y := l.top + float64(i+1)*l.rowH
		for k, s := range spans[i+1].spans {
			d.add(Item{ID: "long/band/" + b.key + "/" + strconv.Itoa(k), Shape: Rect, X: s[0], Y: y + 4, W: max(s[1]-s[0], 1), H: l.rowH - 8, Fill: b.color})
		}
	}
}

// goodput draws the goodput chart: grid, axis labels, the cumulative line
// up to t.
func (d *longFrame) goodput(rep fault.Report, l longLayout, t units.Time) {
	for _, g := range []float64{0, 0.25, 0.5, 0.75, 1} {
		y := l.y(g)
		d.add(Item{ID: "long/grid", Shape: Line, X: l.x0, Y: y, X2: l.x1, Y2: y, Stroke: colRowShade, StrokeWidth: 1})
		d.text("long/grid/label", l.x0-8, y+4, 11, colMuted, AnchorEnd, fmt.Sprintf("%.0f%%", 100*g))
	}
	d.text("long/goodput/title", l.x0, l.gTop-8, 12, colText, AnchorStart, "cumulative goodput (useful work so far / wall time so far)")
	pts := GoodputCurve(rep, 240)
	var px, py float64
	for i, p := range pts {
		if p.At > t {
			break
		}
		x, y := l.x(p.At), l.y(p.Goodput)
		if i > 0 {
			d.add(Item{ID: "long/goodput", Shape: Line, X: px, Y: py, X2: x, Y2: y, Stroke: longBands[0].color, StrokeWidth: 2})
		}
		px, py = x, y
	}
}

// axis draws the time axis under the chart, in days or hours.
func (d *longFrame) axis(wall units.Time, l longLayout) {
	d.add(Item{ID: "axis", Shape: Line, X: l.x0, Y: l.gBot, X2: l.x1, Y2: l.gBot, Stroke: colAxis, StrokeWidth: 1})
	step, unit, name := axisStep(wall)
	for k := units.Time(0); k <= wall; k += step {
		x := l.x(k)
		d.add(Item{ID: "long/axis/tick", Shape: Line, X: x, Y: l.gBot, X2: x, Y2: l.gBot + 5, Stroke: colAxis, StrokeWidth: 1})
		d.text("long/axis/label", x, l.gBot+18, 11, colMuted, AnchorMiddle, strconv.FormatInt(int64(k/unit), 10)+name)
	}
}

// failures draws each failure up to t: a tick on the failures row and a
// thin line down the bands, in the cause's colour.
func (d *longFrame) failures(rep fault.Report, l longLayout, t units.Time) {
	for i, hit := range rep.Hits {
		if hit.At > t {
			break
		}
		x, c := l.x(hit.At), causeColor(hit.Cause)
		thin := c
		thin.A = 0x60
		d.add(Item{ID: "long/failure/" + strconv.Itoa(i) + "/line", Shape: Line, X: x, Y: l.top + l.rowH, X2: x, Y2: l.gBot, Stroke: thin, StrokeWidth: 1})
		d.add(Item{ID: "long/failure/" + strconv.Itoa(i), Shape: Rect, X: x - 3, Y: l.top + 3, W: 6, H: l.rowH - 6, Fill: c})
	}
}

// longPanel writes the headline numbers: the run's, then the playhead's.
func longPanel(dl *DrawList, rep fault.Report, t units.Time, x, y float64) {
	line := func(key, s string, size float64, c Color, bold bool) {
		dl.Items = append(dl.Items, Item{ID: "long/panel/" + key, Shape: Text, X: x, Y: y, Size: size, Fill: c, Text: s, Bold: bold})
		y += size + 8
	}
	for _, r := range LongHeadline(rep) {
		line(r.Key, r.Label+": "+r.Value, 13, colText, r.Key == "goodput")
	}
	y += 8
	line("at", "at "+fault.Human(t)+":", 13, colMuted, false)
	n, useful := 0, UsefulAt(rep, t)
	for _, h := range rep.Hits {
		if h.At <= t {
			n++
		}
	}
	g := 0.0
	if t > 0 {
		g = float64(useful) / float64(t)
	}
	line("at/failures", fmt.Sprintf("failures so far: %d", n), 13, colMuted, false)
	line("at/goodput", fmt.Sprintf("goodput so far: %.1f%%", 100*g), 13, colMuted, false)
	y += 8
	line("causes", "markers by cause:", 12, colMuted, false)
	for _, c := range fault.Causes {
		dl.Items = append(dl.Items, Item{ID: "long/panel/cause/" + c.Name + "/swatch", Shape: Rect, X: x, Y: y - 9, W: 9, H: 9, Fill: causeColor(c.Name)})
		dl.Items = append(dl.Items, Item{ID: "long/panel/cause/" + c.Name, Shape: Text, X: x + 14, Y: y, Size: 12, Fill: colText, Text: c.Name})
		y += 18
	}
}

// HeadlineRow is one of the long-run view's headline numbers.
type HeadlineRow struct{ Key, Label, Value string }

// LongHeadline is the panel's headline numbers, read off the report.
func LongHeadline(rep fault.Report) []HeadlineRow {
	young := "none (no failures expected)"
	if rep.YoungInterval > 0 {
		young = fault.Human(rep.YoungInterval)
	}
	return []HeadlineRow{
		{"policy", "policy", rep.Policy},
		{"wall", "run", fault.Human(rep.Wall)},
		{"failures", "failures", strconv.Itoa(rep.Failures)},
		{"rate", "failures per hour", strconv.FormatFloat(rep.FailuresPerHour, 'f', 3, 64)},
		{"goodput", "goodput", strconv.FormatFloat(100*rep.Goodput, 'f', 1, 64) + "%"},
		{"interval", "checkpoint every", fault.Human(rep.CheckpointInterval)},
		{"young", "Young's interval", young},
	}
}

// GoodputPoint is the cumulative goodput at an instant.
type GoodputPoint struct {
	At      units.Time
	Goodput float64
}

// GoodputCurve samples the cumulative goodput, UsefulAt(t)/t, at n+1
// evenly spaced instants from the first to the end of the run (n ≥ 1); at
// the end it is the report's Goodput.
func GoodputCurve(rep fault.Report, n int) []GoodputPoint {
	n = max(n, 1)
	out := make([]GoodputPoint, 0, n+1)
	for i := 1; i <= n; i++ {
		at := units.Time(math.Round(float64(rep.Wall) * float64(i) / float64(n)))
		if at <= 0 {
			continue
		}
		out = append(out, GoodputPoint{at, float64(UsefulAt(rep, at)) / float64(at)})
	}
	return out
}

// UsefulAt is the useful work the run had at instant t, as it stood then:
// the work of train and lost phases done by t (pro rata within a phase)
// minus the work failures had rolled back by t. At the end it is
// rep.Useful.
func UsefulAt(rep fault.Report, t units.Time) units.Time {
	var u units.Time
	for _, p := range rep.Phases {
		if p.Start >= t {
			break
		}
		if p.Kind != fault.PhaseTrain && p.Kind != fault.PhaseLost {
			continue
		}
		if p.End <= t {
			u += p.Useful
		} else {
			u += units.Time(math.Round(float64(p.Useful) * float64(t-p.Start) / float64(p.End-p.Start)))
		}
	}
	for _, h := range rep.Hits {
		if h.At > t {
			break
		}
		u -= h.LostWork
	}
	return u
}

// The time axis is the item "axis" and the playhead "playhead", as in the
// strip, so StripTimeAt scrubs a long run too.

// DescribeLong explains a long-run item HitTest returned: a failure's
// cause, node, time and lost work.
func DescribeLong(rep fault.Report, id string) string {
	i, err := strconv.Atoi(strings.TrimPrefix(id, "long/failure/"))
	if !strings.HasPrefix(id, "long/failure/") || err != nil || i < 0 || i >= len(rep.Hits) {
		return ""
	}
	h := rep.Hits[i]
	help := ""
	if c, ok := fault.CauseByName(h.Cause); ok {
		help = " (" + c.Help + ")"
	}
	return fmt.Sprintf("Failure %d of %d at %s: cause %s%s, node %d; it rolled back %s of work.",
		i+1, len(rep.Hits), fault.Human(h.At), h.Cause, help, h.Node, fault.Human(h.LostWork))
}

// axisStep picks a tick step for a run of length wall: days for runs of
// two days or more, hours below, about 4–14 ticks.
func axisStep(wall units.Time) (step, unit units.Time, name string) {
	hour := 3600 * units.Second
	day := 24 * hour
	unit, name = hour, "h"
	if wall >= 2*day {
		unit, name = day, "d"
	}
	n := max(int64(wall/unit), 1)
	k := int64(1)
	for n/k > 14 {
		switch {
		case unit == hour && k == 1:
			k = 2
		case unit == hour && k == 2:
			k = 6
		default:
			k *= 2
		}
	}
	return units.Time(k) * unit, unit, name
}

// pixelSpans collects horizontal spans, merging one into the last when
// they touch within half a pixel: a week of phases is thousands of slivers
// but a few hundred pixels.
type pixelSpans struct{ spans [][2]float64 }

func (p *pixelSpans) add(a, b float64) {
	if n := len(p.spans); n > 0 && a-p.spans[n-1][1] < 0.5 {
		p.spans[n-1][1] = max(p.spans[n-1][1], b)
		return
	}
	p.spans = append(p.spans, [2]float64{a, b})
}
