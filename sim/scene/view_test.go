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

// TestDarkLegendContrast checks that every legend swatch stands out from
// the dark background by at least 3:1, the contrast WCAG 2.1 asks of the
// graphics that carry meaning (1.4.11), in the views a projector shows.
func TestDarkLegendContrast(t *testing.T) {
	for _, q := range []string{
		"strategy=rlhf&gpus=8&iterations=16&placement=disaggregated&gen_gpus=4&gen_gpu=h20&train_gpu=h100-sxm",
		"strategy=parameter-server&gpus=4&size=64MiB&iterations=8&sync=ssp&staleness=2&speeds=1,1,0.5,0.25",
		"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&tp=4&pp=2&dp=2&microbatches=4",
		"strategy=collective&gpu=h100-sxm&nodes=2&gpus_per_node=8&size=256MiB",
		"strategy=split-learning&clients=8&iterations=2&client_speeds=1,1,1,1,1,1,1,0.25",
	} {
		tl := queryRun(t, q)
		dl := scene.Build(tl, tl.End/3, scene.Options{Theme: scene.ThemeDark})
		n := 0
		for _, it := range dl.Items {
			if !strings.HasPrefix(it.ID, "legend/") || !strings.HasSuffix(it.ID, "/swatch") {
				continue
			}
			n++
			c := it.Fill
			if c.A == 0 || c == dl.Background { // a hollow swatch shows its outline
				c = it.Stroke
			}
			if r := contrast(c, dl.Background); r < 3 {
				t.Errorf("%s: %s is %v, %.2f:1 against the dark background %v; want at least 3:1", q, it.ID, c, r, dl.Background)
			}
		}
		if n == 0 {
			t.Errorf("%s: no legend swatches", q)
		}
	}
}

// contrast is the WCAG contrast ratio of two opaque colours.
func contrast(a, b scene.Color) float64 {
	lum := func(c scene.Color) float64 {
		ch := func(v uint8) float64 {
			x := float64(v) / 255
			if x <= 0.04045 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}
