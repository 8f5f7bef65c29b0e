package site

import (
	"bytes"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
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
	// A compact poster is the one a narrow column shows (a phone's, below
	// compactBelow CSS px of viewport: style.css and the <source> of
	// writeHTML): laid out for scene.CompactWidth px instead of shrinking
	// the 960-px one by 3 (its smallest text had come out at 3.3 CSS px
	// on a 390-px phone).
	compactWidth  = scene.CompactWidth
	compactHeight = 440
	compactBelow  = 640
	// compactMinText is the compact poster's smallest text, in its own
	// pixels: 11 CSS px when it is shown 312 px wide (a 354-px viewport),
	// 12.3 on a 390-px phone.
	compactMinText = 12.0
)

// Poster is an SVG file written beside the pages.
type Poster struct {
	// Path is relative to the site root, e.g. posters/ring-allreduce-1.svg.
	Path string
	// SVG is the file's content.
	SVG []byte
	// Compact is the poster for narrow columns (Path with -compact before
	// .svg, and its content), or nil.
	Compact *Poster
}

// write writes the poster, and its compact one, under the site's root out.
func (p *Poster) write(out string) error {
	if err := os.WriteFile(filepath.Join(out, p.Path), p.SVG, 0o644); err != nil {
		return err
	}
	if p.Compact != nil {
		return p.Compact.write(out)
	}
	return nil
}

// compactPath is where the compact poster of the poster at path goes.
func compactPath(path string) string { return strings.TrimSuffix(path, ".svg") + "-compact.svg" }

// demo is one ```sim block after it has been validated and run.
type demo struct {
	scenario scenario.Scenario
	view     demoView
	summary  timeline.Summary
	// beside are the links to compare mode (view.beside), as HTML.
	beside string
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
	if v.Static {
		return newStaticDemo(s, v, tl)
	}
	t := posterInstant(tl)
	if v.HasPoster {
		if v.Poster > tl.End {
			return nil, fmt.Errorf("view.poster: %v is after the end of the run (%v)", v.Poster, tl.End)
		}
		t = v.Poster
	}
	frames := scene.NewFrames(tl)
	path := fmt.Sprintf("posters/%s-%d.svg", slug, n)
	full, err := posterSVG(frames, t, v, scene.Options{Width: posterWidth, Height: posterHeight, MinText: posterMinText})
	if err != nil {
		return nil, err
	}
	compact, err := posterSVG(frames, t, v, scene.Options{Width: compactWidth, Height: compactHeight, MinText: compactMinText, Compact: true})
	if err != nil {
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
	beside, err := besideLinks(s, v.Beside)
	if err != nil {
		return nil, err
	}
	return &demo{
		beside:   beside,
		chart:    chart,
		scenario: s,
		view:     v,
		summary:  sum,
		caption:  caption,
		parts:    parts,
		poster:   Poster{Path: path, SVG: full, Compact: &Poster{Path: compactPath(path), SVG: compact}},
	}, nil
}

// besideLinks is, for each row of view.beside, a link to play.html's
// compare mode with the block's scenario as run A and the row's (the
// block's with the row's URL parameters set) as run B, both valid.
func besideLinks(s scenario.Scenario, rows []compareRow) (string, error) {
	var b strings.Builder
	for _, r := range rows {
		other, err := applySet(s, r.Set)
		if err == nil {
			err = other.Validate()
		}
		if err != nil {
			return "", fmt.Errorf("view.beside %q: %w", r.Label, err)
		}
		q := url.Values{"a": {s.Query().Encode()}, "b": {other.Query().Encode()}}
		fmt.Fprintf(&b, ` · <a href="%s">side by side with %s</a>`, html.EscapeString("play.html?"+q.Encode()), html.EscapeString(r.Label))
	}
	return b.String(), nil
}

// posterSVG draws the frame at t with opt as SVG, without the items the
// block's view hides.
func posterSVG(f *scene.Frames, t units.Time, v demoView, opt scene.Options) ([]byte, error) {
	dl := f.Build(t, opt)
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
	return svg.Bytes(), nil
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
	if d.view.Static {
		d.writeStaticHTML(w, n)
		return
	}
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
<div class="frame"%s>%s
<button class="play" type="button" hidden aria-label="Play the live demo: %s"><span aria-hidden="true">▶</span> Play</button>%s</div>
%s<figcaption>%s. <span class="metrics">%s</span> · <a href="%s">open full page</a> · <a href="%s" title="iframe code for web pages and reveal.js, a link for Google Slides, a GIF for PowerPoint">embed this</a>%s</figcaption>
</figure>
`, n, esc(d.query(true)), title, auto, style, d.posterHTML(title), title, placeholder,
		d.chartHTML(), caption, esc(d.metrics()), esc(d.query(false)), esc(d.embedPage()), d.beside)
}

// posterHTML is the figure's poster: a <picture> whose compact poster a
// narrow viewport shows (compactBelow), or the bare <img> of a demo without
// one. title is escaped already.
func (d *demo) posterHTML(title string) string {
	img := fmt.Sprintf(`<img class="poster" src="%s" width="%d" height="%d" alt="Poster of the demo at one instant: %s">`,
		html.EscapeString(d.poster.Path), posterWidth, posterHeight, title)
	c := d.poster.Compact
	if c == nil {
		return img
	}
	return fmt.Sprintf(`<picture><source media="(max-width: %dpx)" srcset="%s" width="%d" height="%d">%s</picture>`,
		compactBelow-1, html.EscapeString(c.Path), compactWidth, compactHeight, img)
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
