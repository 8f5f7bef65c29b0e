package scene

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// beacon is a toy strategy's record from outside package scene: it puts a
// badge reading "beacon" over GPU 0's box and names the run in the title.
type beacon struct{ note string }

func (r beacon) Overlay(c *Canvas, tl *timeline.Timeline, t units.Time) {
	if title := c.Find("header/title"); title != nil {
		title.Text += " · " + r.note
	}
	box := c.Find("gpu/0")
	if box == nil {
		return
	}
	size := c.TextSize(11)
	c.Add(Item{ID: "beacon/badge", Shape: Rect, X: box.X, Y: box.Y - size - 4*c.Scale(), W: box.W, H: size + 4*c.Scale(), Fill: colLagOK})
	c.Add(Item{ID: "beacon/badge/label", Shape: Text, X: box.X + box.W/2, Y: box.Y - 3*c.Scale(),
		Text: "beacon", Size: size, Fill: c.TextColor(), Anchor: AnchorMiddle})
}

// Check and Report make a beacon a record a timeline can carry in Extra.
func (beacon) Check(*timeline.Timeline) []error { return nil }

// Report adds nothing to the summary.
func (beacon) Report(*timeline.Timeline, *timeline.Summary) timeline.Report { return nil }

// withOverlays puts records from outside package scene in tl.Extra, as a
// strategy's Simulate does, and prepares tl for Build.
func withOverlays(tl *timeline.Timeline, o ...beacon) *Frames {
	tl.Extra = map[string]timeline.Record{}
	for i, b := range o {
		tl.Extra[fmt.Sprint(i)] = b
	}
	return NewFrames(tl)
}

// TestOverlayDressesTheFrame checks that an Overlay's items reach the draw
// list and the SVG, on top, that its edits stick, and that the frame is
// otherwise the one Build draws without it.
func TestOverlayDressesTheFrame(t *testing.T) {
	tl := ringTimeline(4)
	at := 3 * ms
	plain := Build(tl, at, Options{})
	dl := withOverlays(tl, beacon{"toy"}).Build(at, Options{})
	badge, ok := find(dl, "beacon/badge/label")
	if !ok || badge.Text != "beacon" {
		t.Fatalf("beacon/badge/label = %+v, %v; want the text beacon", badge, ok)
	}
	if last := dl.Items[len(dl.Items)-1].ID; last != "beacon/badge/label" {
		t.Errorf("last item %q, want the overlay's beacon/badge/label on top", last)
	}
	title, _ := find(dl, "header/title")
	want, _ := find(plain, "header/title")
	if got, want := title.Text, want.Text+" · toy"; got != want {
		t.Errorf("header/title = %q, want %q", got, want)
	}
	if got, want := len(dl.Items), len(plain.Items)+2; got != want {
		t.Errorf("%d items, want %d (the plain frame's and the overlay's two)", got, want)
	}
	var svg strings.Builder
	if err := WriteSVG(&svg, dl); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`data-id="beacon/badge"`, `data-id="beacon/badge/label"`, ">beacon<"} {
		if !strings.Contains(svg.String(), s) {
			t.Errorf("the SVG lacks %s", s)
		}
	}
}

// notOverlay is a record that draws nothing.
type notOverlay struct{}

func TestOverlaysByKey(t *testing.T) {
	for _, tc := range []struct {
		name    string
		records map[string]any
		want    []Overlay
	}{
		{"none", nil, nil},
		{"sorted by key", map[string]any{"b": beacon{"b"}, "a": beacon{"a"}, "c": beacon{"c"}},
			[]Overlay{beacon{"a"}, beacon{"b"}, beacon{"c"}}},
		{"records that draw nothing are skipped", map[string]any{"a": notOverlay{}, "b": beacon{"b"}},
			[]Overlay{beacon{"b"}}},
	} {
		if got := overlaysByKey(tc.records); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: overlaysByKey = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// An Overlay on a run whose strategy lives outside package scene: the
// record adds a badge over GPU 0 and names itself in the title.
func ExampleOverlay() {
	tl := ringTimeline(4)
	f := withOverlays(tl, beacon{"toy strategy"}) // the record in tl.Extra
	dl := f.Build(3*ms, Options{})
	for _, id := range []string{"header/title", "beacon/badge/label"} {
		if it, ok := find(dl, id); ok {
			fmt.Printf("%s: %s\n", id, it.Text)
		}
	}
	var svg strings.Builder
	if err := WriteSVG(&svg, dl); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Println(strings.Contains(svg.String(), `data-id="beacon/badge"`))
	// Output:
	// header/title: Data parallel, ring all-reduce · toy strategy
	// beacon/badge/label: beacon
	// true
}
