package site

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"paraplay/sim/units"
)

// viewKey is the top-level key of a ```sim block that holds display
// options. It is not a scenario key (scenario.Parse rejects unknown keys),
// so the site strips it before parsing the scenario.
const viewKey = "view"

// hideable are the parts of a demo an author may hide, with the prefix of
// their scene item IDs (see package scene) so the poster hides them too.
var hideable = map[string]string{
	"header":  "header/",
	"legend":  "legend/",
	"strip":   "strip/",
	"caption": "caption",
}

// demoView holds the display options of one demo, written in the block as
//
//	view:
//	  poster: 7ms      # the instant the poster shows; default mid all-reduce
//	  start: 0s        # the instant the live demo opens at (URL t=)
//	  speed: 2         # playback speed multiplier (URL speed=)
//	  height: 420      # frame height in CSS pixels; default 16:10 of the width
//	  autoplay: true   # load when scrolled into view (first such demo only)
//	  hide: [legend]   # parts to leave out: header, legend, strip, caption
//	  plan: true       # the embedded planner: search this scenario's plans
//	                   # (with static: true, a table of the search run at
//	                   # build time, no live demo; compare rows are
//	                   # simulated beside the best, plansearch.go)
//	  compare:         # a table of plans instead of a demo (plantable.go)
//	    - {label: the block's plan, set: ""}
//	    - {label: fewer stages, set: "pp=8&dp=256&microbatches=8"}
//	  sweep: [64KiB, 1MiB]  # with compare: a lone collective's times at
//	                   # each size for each variant (sweeptable.go)
//	  beside:          # links under the demo to play.html's compare mode:
//	    - {label: checkpoint-restart, set: "recovery=checkpoint-restart"}
type demoView struct {
	Poster    units.Time
	HasPoster bool
	Start     units.Time
	HasStart  bool
	Speed     float64
	Height    int
	Autoplay  bool
	Hide      []string
	// Plan makes the demo the embedded planner (newPlanDemo): the poster
	// is the finished search's scatter and the live demo opens play.html
	// with plan=1.
	Plan bool
	// Compare makes the block a table of plans, each the block's scenario
	// with some URL parameters changed, priced by the planner's screen.
	Compare []compareRow
	// Sweep, with Compare, makes the block a table of a lone collective's
	// simulated times: a row per buffer size, a column per variant.
	Sweep []units.Bytes
	// Beside adds, under the demo, a link per row to play.html's compare
	// mode: the block's run (a=) beside the row's (b=), on one clock.
	Beside []compareRow
	// Static makes the block a table of the run's caption figures (with
	// Plan: of the search, searchHTML), computed at build time, with no
	// poster and no live demo: for runs the playground leaves out to keep
	// the wasm small, or larger than the browser's work budget
	// (TestDemosFitTheBrowsersBudget holds the live ones to it), or
	// searches longer than a page should take, which paraplay run and
	// paraplay plan reproduce.
	Static bool
}

// viewKeys lists the options for error messages.
const viewKeys = "poster, start, speed, height, autoplay, hide, plan, compare, sweep, beside, static"

// splitView finds the top-level view: key of a sim block, decodes it, and
// returns the YAML with the view section blanked out line by line, so the
// scenario parser's line numbers still match the block. Errors carry the
// 1-based line within the block.
func splitView(block []byte) (demoView, []byte, []lineError) {
	var doc yaml.Node
	if yaml.Unmarshal(block, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return demoView{}, block, nil // let scenario.Parse explain
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != viewKey {
			continue
		}
		last := bytes.Count(block, []byte("\n")) + 1
		if i+2 < len(root.Content) {
			last = root.Content[i+2].Line - 1
		}
		view, errs := decodeView(v)
		return view, blankLines(block, k.Line, last), errs
	}
	return demoView{}, block, nil
}

// lineError is a problem at a line of a sim block.
type lineError struct {
	line int
	msg  string
}

// blankLines empties lines from..to (1-based, inclusive) and keeps the rest.
func blankLines(text []byte, from, to int) []byte {
	lines := strings.Split(string(text), "\n")
	for i := from - 1; i < to && i < len(lines); i++ {
		lines[i] = ""
	}
	return []byte(strings.Join(lines, "\n"))
}

func decodeView(v *yaml.Node) (demoView, []lineError) {
	view := demoView{Speed: 1}
	if v.Kind != yaml.MappingNode {
		return view, []lineError{{v.Line, "view: want options (" + viewKeys + ")"}}
	}
	var errs []lineError
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if err := setView(&view, k.Value, val); err != nil {
			errs = append(errs, lineError{k.Line, fmt.Sprintf("view.%s: %v", k.Value, err)})
		}
	}
	return view, errs
}

func setView(view *demoView, key string, v *yaml.Node) error {
	if key == "hide" {
		var parts []string
		if err := setList(&parts, v); err != nil {
			return err
		}
		for _, p := range parts {
			if _, ok := hideable[p]; !ok {
				return fmt.Errorf("%q cannot be hidden; want header, legend, strip or caption", p)
			}
		}
		view.Hide = parts
		return nil
	}
	if key == "compare" || key == "beside" {
		rows, err := decodeCompare(v)
		if key == "beside" {
			view.Beside = rows
		} else {
			view.Compare = rows
		}
		return err
	}
	if key == "sweep" {
		sizes, err := decodeSweep(v)
		view.Sweep = sizes
		return err
	}
	if v.Kind != yaml.ScalarNode {
		return errors.New("want a single value")
	}
	s := strings.TrimSpace(v.Value)
	var err error
	switch key {
	case "poster":
		view.Poster, err = units.ParseTime(s)
		view.HasPoster = err == nil
	case "start":
		view.Start, err = units.ParseTime(s)
		view.HasStart = err == nil
	case "speed":
		view.Speed, err = strconv.ParseFloat(s, 64)
		if err == nil && (view.Speed < 0.0625 || view.Speed > 16) {
			err = fmt.Errorf("%v is out of range 0.0625..16", view.Speed)
		}
	case "height":
		view.Height, err = strconv.Atoi(s)
		if err == nil && (view.Height < 120 || view.Height > 1200) {
			err = fmt.Errorf("%d is out of range 120..1200 (CSS pixels)", view.Height)
		}
	case "autoplay":
		view.Autoplay, err = strconv.ParseBool(s)
	case "plan":
		view.Plan, err = strconv.ParseBool(s)
	case "static":
		view.Static, err = strconv.ParseBool(s)
	default:
		return fmt.Errorf("unknown option; known: %s", viewKeys)
	}
	return err
}

// hidden reports whether the scene item with this ID is hidden by v.
func (v demoView) hidden(id string) bool {
	return slices.ContainsFunc(v.Hide, func(part string) bool {
		p := hideable[part]
		return id == strings.TrimSuffix(p, "/") || strings.HasPrefix(id, p)
	})
}
