package site

import (
	"fmt"
	"html"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

// newStaticDemo is a view.static block's demo: the run's caption, no
// poster (its figure is the table writeStaticHTML draws).
func newStaticDemo(s scenario.Scenario, v demoView, tl *timeline.Timeline) (*demo, error) {
	sum := tl.Summarize()
	parts, err := captionMetrics(s, tl, sum)
	var caption string
	if err == nil {
		caption, err = captionText(parts)
	}
	if err != nil {
		return nil, fmt.Errorf("caption: %w", err)
	}
	return &demo{scenario: s, view: v, summary: sum, caption: caption, parts: parts}, nil
}

// writeStaticHTML writes a view.static demo: a table with a row per
// caption part, every figure computed when the site was built, and a
// caption saying so and how to run it. It is no figure.demo: there is no
// poster to play.
func (d *demo) writeStaticHTML(w interface{ WriteString(string) (int, error) }, n int) {
	esc := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, `<figure class="plan-table static-run" id="static-%d"><table><tbody>`, n)
	for _, p := range d.parts {
		text, _ := captionText([]strategy.Part{p}) // one part, its values written in their units
		fmt.Fprintf(&b, "<tr><td>%s</td></tr>\n", esc(text))
	}
	title := esc(describe(d.scenario))
	if name := d.scenario.Name; name != "" && name != scenario.Default().Name {
		title = "<strong>" + esc(name) + "</strong> — " + title
	}
	fmt.Fprintf(&b, `</tbody></table><figcaption>%s. Every figure computed when the site was built, by the simulation `+
		`<code>paraplay run</code> runs; the browser does not run this one (the playground leaves the sequence-to-sequence hybrid, the 3D U-Net and the FlexFlow and DLPlacer searches out to stay small).</figcaption></figure>`+"\n", title)
	_, _ = w.WriteString(b.String())
}
