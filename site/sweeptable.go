package site

import (
	"errors"
	"fmt"
	"html"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// A sweep table (view.sweep with view.compare) runs a lone collective's
// block at every buffer size of view.sweep, once for each variant of
// view.compare, and tabulates the simulated times: a row per size, a
// column per variant, the fastest of each row in bold. It is how an
// article shows a crossover (where the tree stops beating the ring)
// with every figure from the simulator at build time:
//
//	view:
//	  sweep: [8B, 64KiB, 1MiB, 16MiB, 256MiB]
//	  compare:
//	    - {label: ring, set: "algo=ring"}
//	    - {label: tree, set: "algo=tree"}

// decodeSweep reads view.sweep: a list of buffer sizes.
func decodeSweep(v *yaml.Node) ([]units.Bytes, error) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, errors.New("want a list of buffer sizes, e.g. [64KiB, 1MiB, 256MiB]")
	}
	var sizes []units.Bytes
	for _, item := range v.Content {
		b, err := units.ParseBytes(strings.TrimSpace(item.Value))
		if err != nil || item.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: %q is not a buffer size (e.g. 64KiB)", item.Line, item.Value)
		}
		sizes = append(sizes, b)
	}
	return sizes, nil
}

// sweepCell is one simulated run of the table.
type sweepCell struct {
	time  units.Time
	busbw units.Bandwidth
}

// sweepCollectives runs every cell of the table: for each size, the
// block's scenario with each variant's parameters and that size.
func sweepCollectives(base scenario.Scenario, sizes []units.Bytes, cols []compareRow) ([][]sweepCell, error) {
	var out [][]sweepCell
	for _, size := range sizes {
		var row []sweepCell
		for _, c := range cols {
			cell, err := sweepRun(base, c.Set+"&size="+size.String())
			if err != nil {
				return nil, fmt.Errorf("view.sweep %v, %q: %w", size, c.Label, err)
			}
			row = append(row, cell)
		}
		out = append(out, row)
	}
	return out, nil
}

// sweepRun simulates the block's scenario with the URL parameters set on
// top: the time and bus bandwidth of its collective.
func sweepRun(base scenario.Scenario, set string) (sweepCell, error) {
	s, err := applySet(base, set)
	if err != nil {
		return sweepCell{}, err
	}
	if s.Strategy != "collective" {
		return sweepCell{}, fmt.Errorf("a sweep table runs a lone collective (strategy: collective), not %s", s.Strategy)
	}
	tl, err := run.Simulate(s)
	if err != nil {
		return sweepCell{}, err
	}
	sum := tl.Summarize()
	if len(sum.Collectives) == 0 {
		return sweepCell{}, errors.New("the run has no collective")
	}
	c := sum.Collectives[0]
	return sweepCell{c.Time, c.BusBW}, nil
}

// sweepHTML renders the table and its caption.
func sweepHTML(title string, sizes []units.Bytes, cols []compareRow, cells [][]sweepCell) string {
	esc := html.EscapeString
	var b strings.Builder
	b.WriteString(`<figure class="plan-table"><table><thead><tr><th>buffer</th>`)
	for _, c := range cols {
		fmt.Fprintf(&b, "<th>%s</th>", esc(c.Label))
	}
	b.WriteString("</tr></thead><tbody>\n")
	for i, row := range cells {
		best := 0
		for j, c := range row {
			if c.time < row[best].time {
				best = j
			}
		}
		fmt.Fprintf(&b, "<tr><td>%s</td>", esc(sizes[i].String()))
		for j, c := range row {
			cell := fmt.Sprintf("%s<br><small>busbw %.1f GB/s</small>", esc(roundTime(c.time)), float64(c.busbw)/1e9)
			if j == best {
				cell = "<strong>" + cell + "</strong>"
			}
			fmt.Fprintf(&b, "<td>%s</td>", cell)
		}
		b.WriteString("</tr>\n")
	}
	fmt.Fprintf(&b, `</tbody></table><figcaption><strong>%s</strong>. Every time simulated at build time, the fastest `+
		`of each size in bold; bus bandwidth as nccl-tests reports it.</figcaption></figure>`+"\n", esc(title))
	return b.String()
}
