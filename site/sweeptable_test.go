package site

import (
	"strings"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// TestSweepTable checks a sweep table against the closed forms of the
// runs it tabulates: a ring and a tree all-reduce on 16 GPUs of ideal
// 100 GB/s, 5 µs links at two sizes, each cell the simulated time (which
// equals collective.Time there), the faster of each row in bold — the tree
// at 64 KiB, the ring at 256 MiB — and the errors of a table that cannot
// be made.
func TestSweepTable(t *testing.T) {
	s := parseBlock(t, "strategy: collective\ngpus: 16\nlink: {bandwidth: 100GB/s, latency: 5us}\n")
	sizes := []units.Bytes{64 * units.KiB, 256 * units.MiB}
	cols := []compareRow{{"ring", "algo=ring"}, {"tree", "algo=tree"}}
	cells, err := sweepCollectives(s, sizes, cols)
	if err != nil {
		t.Fatal(err)
	}
	for i, size := range sizes {
		for j, c := range cols {
			want, err := collective.Time("all_reduce", c.Label, collective.Config{Ranks: 16, Bytes: size}, 5*units.Microsecond, 100*units.GBps)
			if err != nil {
				t.Fatal(err)
			}
			if got := cells[i][j].time.Seconds(); got < want*(1-1e-4) || got > want*(1+1e-4) {
				t.Errorf("%v %s: cell %v; want the closed form's %.9gs", size, c.Label, cells[i][j].time, want)
			}
		}
	}
	html := sweepHTML("Ring or tree", sizes, cols, cells)
	for _, want := range []string{"<th>ring</th><th>tree</th>", "<td>64KiB</td><td>", "</td><td><strong>" + roundTime(cells[0][1].time),
		"<td>256MiB</td><td><strong>" + roundTime(cells[1][0].time), "<strong>Ring or tree</strong>"} {
		if !strings.Contains(html, want) {
			t.Errorf("the table lacks %q:\n%s", want, html)
		}
	}
	if _, err := sweepCollectives(s, sizes, []compareRow{{"bad", "algo=nope"}}); err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Errorf("a variant that does not validate: error %v; want one naming it", err)
	}
	if _, err := sweepCollectives(parseBlock(t, "gpus: 4\n"), sizes, cols); err == nil || !strings.Contains(err.Error(), "lone collective") {
		t.Errorf("a data-parallel block: error %v; want one asking for a lone collective", err)
	}
	for _, tt := range []struct{ block, want string }{
		{"gpus: 4\nview:\n  sweep: 1MiB\n", "view.sweep: want a list"},
		{"gpus: 4\nview:\n  sweep: [1MiB, lots]\n", `"lots" is not a buffer size`},
	} {
		if _, _, errs := splitView([]byte(tt.block)); len(errs) == 0 || !strings.Contains(errs[0].msg, tt.want) {
			t.Errorf("%q: errors %v; want one containing %q", tt.block, errs, tt.want)
		}
	}
	_, err = RenderArticle("a.md", []byte("---\ntitle: T\n---\n```sim\nstrategy: collective\ngpus: 4\nview:\n  sweep: [1MiB]\n```\n"), Library{})
	if err == nil || !strings.Contains(err.Error(), "view.sweep needs view.compare") {
		t.Errorf("a sweep without variants: error %v; want one asking for view.compare", err)
	}
}
