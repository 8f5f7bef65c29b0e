package scene_test

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/scene"
	"paraplay/sim/units"
)

// TestViews checks that each view keeps its own items and drops the
// others', and that everything it keeps lies on the canvas.
func TestViews(t *testing.T) {
	tl := simulate(t, "llama3-8b-2x8.yaml", "")
	f := scene.NewFrames(tl)
	at := tl.End / 2
	tests := []struct {
		view       scene.View
		want, none []string
	}{
		{scene.ViewCluster, []string{"gpu/0", "legend/"}, []string{"strip/row/", "mem/0", "axis"}},
		{scene.ViewTimeline, []string{"strip/row/", "axis", "playhead"}, []string{"gpu/0", "mem/0", "header/title"}},
		{scene.ViewMemory, []string{"mem/0", "metrics/"}, []string{"gpu/0", "strip/row/"}},
	}
	for _, tc := range tests {
		dl := f.Build(at, scene.Options{Width: 800, Height: 450, View: tc.view})
		if dl.Width != 800 || dl.Height != 450 {
			t.Errorf("%s: canvas %v×%v, want 800×450", tc.view, dl.Width, dl.Height)
		}
		has := func(prefix string) bool {
			for _, it := range dl.Items {
				if strings.HasPrefix(it.ID, prefix) {
					return true
				}
			}
			return false
		}
		for _, p := range tc.want {
			if !has(p) {
				t.Errorf("%s view lacks %q", tc.view, p)
			}
		}
		for _, p := range tc.none {
			if has(p) {
				t.Errorf("%s view holds %q", tc.view, p)
			}
		}
	}
	// A run without training has no memory panel: a message, not a blank.
	ring := scene.NewFrames(simulate(t, "ring4.yaml", ""))
	dl := ring.Build(0, scene.Options{View: scene.ViewMemory})
	if len(dl.Items) != 1 || !strings.Contains(dl.Items[0].Text, "no memory panel") {
		t.Errorf("memory view of a ring: %+v, want one message", dl.Items)
	}
}

func TestParseView(t *testing.T) {
	for _, s := range scene.Views {
		if _, err := scene.ParseView(s); err != nil {
			t.Errorf("ParseView(%q): %v", s, err)
		}
	}
	if _, err := scene.ParseView("gpus"); err == nil || !strings.Contains(err.Error(), "cluster, timeline, memory") {
		t.Errorf("ParseView(gpus): %v, want the list of views", err)
	}
}

// TestDarkTheme checks that the dark theme changes the background and the
// text on it, keeps the meaning-carrying fills, and keeps the text on them.
func TestDarkTheme(t *testing.T) {
	tl := simulate(t, "ring4.yaml", "")
	at := units.Time(tl.End / 3)
	light := scene.Build(tl, at, scene.Options{})
	dark := scene.Build(tl, at, scene.Options{Theme: scene.ThemeDark})
	if light.Background == dark.Background || len(light.Items) != len(dark.Items) {
		t.Fatalf("dark theme: background %v (light %v), %d items (light %d)", dark.Background, light.Background, len(dark.Items), len(light.Items))
	}
	for i, l := range light.Items {
		d := dark.Items[i]
		switch {
		case l.ID == "header/title" && l.Fill == d.Fill:
			t.Errorf("title text stays %v on the dark background", l.Fill)
		case l.ID == "gpu/0" && l.Fill != d.Fill:
			t.Errorf("GPU 0's state fill changed from %v to %v", l.Fill, d.Fill)
		case l.ID == "gpu/0/label" && l.Fill != d.Fill:
			t.Errorf("GPU 0's label on its fill changed from %v to %v", l.Fill, d.Fill)
		}
	}
}

// TestPresent checks presenter mode's larger text and thicker lines.
func TestPresent(t *testing.T) {
	tl := simulate(t, "ring4.yaml", "")
	plain := scene.Build(tl, tl.End/2, scene.Options{})
	big := scene.Build(tl, tl.End/2, scene.Options{Present: true})
	find := func(dl scene.DrawList, id string) scene.Item {
		for _, it := range dl.Items {
			if it.ID == id {
				return it
			}
		}
		t.Fatalf("no item %q", id)
		return scene.Item{}
	}
	// The frame is laid out above the caption band, 34·1.4 px of 600.
	k := (600 - 34*scene.PresentTextScale) / 600
	if p, b := find(plain, "header/title").Size, find(big, "header/title").Size; math.Abs(b-p*k*scene.PresentTextScale) > 1e-9 {
		t.Errorf("title size %v in presenter mode, want %v × %v × %v", b, p, k, scene.PresentTextScale)
	}
	if p, b := find(plain, "playhead").StrokeWidth, find(big, "playhead").StrokeWidth; math.Abs(b-p*k*scene.PresentLineScale) > 1e-9 {
		t.Errorf("playhead width %v in presenter mode, want %v × %v × %v", b, p, k, scene.PresentLineScale)
	}
	if c := find(big, "present/caption"); c.Text == "" || c.Y > 50 {
		t.Errorf("presenter caption %q at y=%v; want a line at the top", c.Text, c.Y)
	}
}
