package site

import (
	"bytes"
	"fmt"
	"html"
	"net/url"
	"strconv"
	"strings"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Poster sizes: the app's canvas, so poster and live demo line up.
const (
	posterWidth  = 960
	posterHeight = 600
	// figureWidth is the widest an article shows a demo, in CSS px
	// (style.css: article figure.demo, 75rem).
	figureWidth = 1200
	// minTextCSS is the smallest text a reader should meet, in CSS px.
	minTextCSS = 11.0
	// posterMinText is the smallest text a poster draws, in its own
	// pixels: minTextCSS at figureWidth (11 × 960/1200 = 8.8). Labels that
	// would be smaller (a thin strip row's span labels) are left out.
	posterMinText = minTextCSS * posterWidth / figureWidth
)

// Poster is an SVG file written beside the pages.
type Poster struct {
	// Path is relative to the site root, e.g. posters/ring-allreduce-1.svg.
	Path string
	// SVG is the file's content.
	SVG []byte
}

// demo is one ```sim block after it has been validated and run.
type demo struct {
	scenario scenario.Scenario
	view     demoView
	summary  timeline.Summary
	// caption is the line of key numbers under the poster, written from
	// parts (captionMetrics): its figures and closed-form checks.
	caption string
	parts   []strategy.Part
	// chart is an inline SVG drawn under the poster, or "": a long run's
	// goodput against the checkpoint interval (goodputChart).
	chart  string
	poster Poster
}

// newDemo runs s and draws the poster; n numbers the demo in its page.
func newDemo(slug string, n int, s scenario.Scenario, v demoView) (*demo, error) {
	if v.Plan {
		return newPlanDemo(slug, n, s, v)
	}
	tl, err := run.Simulate(s)
	if err != nil {
		return nil, fmt.Errorf("simulating: %w", err)
	}
	t := posterInstant(tl)
	if v.HasPoster {
		if v.Poster > tl.End {
			return nil, fmt.Errorf("view.poster: %v is after the end of the run (%v)", v.Poster, tl.End)
		}
		t = v.Poster
	}
	dl := scene.Build(tl, t, scene.Options{Width: posterWidth, Height: posterHeight, MinText: posterMinText})
	if len(v.Hide) > 0 {
		kept := dl.Items[:0:0]
		for _, it := range dl.Items {
			if !v.hidden(it.ID) {
				kept = append(kept, it)
			}
		}
		dl.Items = kept
	}
	var svg bytes.Buffer
	if err := scene.WriteSVG(&svg, dl); err != nil {
		return nil, err
	}
	sum := tl.Summarize()
	parts, err := captionMetrics(s, tl, sum)
	var caption string
	if err == nil {
		caption, err = captionText(parts)
	}
	if err != nil {
		return nil, fmt.Errorf("caption: %w", err)
	}
	chart, err := goodputChart(s)
	if err != nil {
		return nil, fmt.Errorf("goodput chart: %w", err)
	}
	return &demo{
		chart:    chart,
		scenario: s,
		view:     v,
		summary:  sum,
		caption:  caption,
		parts:    parts,
		poster:   Poster{Path: fmt.Sprintf("posters/%s-%d.svg", slug, n), SVG: svg.Bytes()},
	}, nil
}

// posterInstant picks the middle of the first collective, where the links
// are busiest, or the middle of the run when there is none.
func posterInstant(tl *timeline.Timeline) units.Time {
	if len(tl.Collectives) > 0 {
		c := tl.Collectives[0]
		return c.Start + (c.End-c.Start)/2
	}
	return tl.End / 2
}

// query is the play.html query string: the scenario, then the view.
func (d *demo) query(embed bool) string {
	q := d.scenario.Query()
	if embed {
		q.Set("embed", "1")
	}
	if d.view.Plan {
		q.Set("plan", "1")
	}
	if d.view.HasStart {
		q.Set("t", d.view.Start.String())
	}
	if d.view.Speed != 0 && d.view.Speed != 1 {
		q.Set("speed", strconv.FormatFloat(d.view.Speed, 'g', -1, 64))
	}
	if len(d.view.Hide) > 0 {
		q.Set("hide", strings.Join(d.view.Hide, ","))
	}
	return encodeQuery(q)
}

func encodeQuery(q url.Values) string {
	if s := q.Encode(); s != "" {
		return "play.html?" + s
	}
	return "play.html"
}

// metrics is the caption's line of key numbers from the run, with the
// closed forms beside them (see captionMetrics).
func (d *demo) metrics() string { return d.caption }

// writeHTML writes the figure: the poster with a play button (shown by
// demo.js; without JavaScript the poster and caption remain), and the
// caption with the run's key numbers. demo.js swaps the poster for an
// iframe of data-src when the reader presses play.
func (d *demo) writeHTML(w interface{ WriteString(string) (int, error) }, n int) {
	esc := html.EscapeString
	desc := esc(describe(d.scenario))
	title, caption := desc, desc
	if def := scenario.Default(); d.scenario.Name != def.Name && d.scenario.Name != "" {
		name := esc(d.scenario.Name)
		title = name + " — " + desc
		caption = "<strong>" + name + "</strong> — " + desc
	}
	style := ""
	if d.view.Height > 0 {
		style = fmt.Sprintf(` style="height:%dpx"`, d.view.Height)
	}
	auto, placeholder := "", ""
	if d.view.Autoplay {
		// An autoplay figure carries its iframe from the start, without a
		// src (about:blank: nothing is fetched, and CSS keeps it invisible);
		// demo.js gives it the src when the figure scrolls into view.
		auto = " data-autoplay"
		placeholder = `<iframe title="Live demo: ` + title + `" allow="fullscreen"></iframe>`
	}
	fmt.Fprintf(stringWriter{w}, `<figure class="demo" id="demo-%d" data-src="%s" data-title="Live demo: %s"%s>
<div class="frame"%s><img class="poster" src="%s" width="%d" height="%d" alt="Poster of the demo at one instant: %s">
<button class="play" type="button" hidden aria-label="Play the live demo: %s"><span aria-hidden="true">▶</span> Play</button>%s</div>
%s<figcaption>%s. <span class="metrics">%s</span> · <a href="%s">open full page</a> · <a href="%s" title="iframe code for web pages and reveal.js, a link for Google Slides, a GIF for PowerPoint">embed this</a></figcaption>
</figure>
`, n, esc(d.query(true)), title, auto, style, esc(d.poster.Path), posterWidth, posterHeight, title, title, placeholder,
		d.chartHTML(), caption, esc(d.metrics()), esc(d.query(false)), esc(d.embedPage()))
}

// embedPage is the address of embed.html for this demo: the snippets that
// put it into slides (web pages, reveal.js, Google Slides, PowerPoint).
func (d *demo) embedPage() string {
	q := strings.TrimPrefix(strings.TrimPrefix(d.query(false), "play.html"), "?")
	if q == "" {
		return "embed.html"
	}
	return "embed.html?demo=" + url.QueryEscape(q)
}

// describe is the one-line summary of a demo's settings: the strategy's
// fuller demo description when it has one (strategy.DemoDescriber: a
// training demo names its model, cluster and plan), else its Describe.
func describe(s scenario.Scenario) string {
	if st, ok := run.Lookup(s.Strategy); ok {
		if d, ok := st.(strategy.DemoDescriber); ok {
			return d.DescribeDemo(&s)
		}
	}
	return s.Describe()
}

// stringWriter adapts a WriteString method to io.Writer for fmt.Fprintf.
type stringWriter struct {
	w interface{ WriteString(string) (int, error) }
}

func (s stringWriter) Write(p []byte) (int, error) { return s.w.WriteString(string(p)) }

// roundTime prints t to three significant digits for captions: "10.1 ms".
func roundTime(t units.Time) string {
	ns := float64(t)
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.3g s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.3g ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

// chartHTML is the demo's chart in a block of its own, or "".
func (d *demo) chartHTML() string {
	if d.chart == "" {
		return ""
	}
	return `<div class="chart">` + d.chart + "</div>\n"
}
