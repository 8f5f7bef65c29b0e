package scene_test

import (
	"bytes"
	"fmt"
	"image"
	"net/url"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// TestDamageCoversEveryChangedPixel plays real runs frame by frame as the
// browser does and checks Damage's promise with the raster backend: every
// pixel that differs between two consecutive frames lies inside a region
// Damage returned (or Damage asked for a full repaint). It also checks that
// the regions are disjoint and inside the canvas, and that on a cluster run
// most frames repaint well under half of the canvas, which is the point.
func TestDamageCoversEveryChangedPixel(t *testing.T) {
	r, err := scene.NewRaster()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		tl   *timeline.Timeline
		opt  scene.Options
	}{
		{"ring 8", queryRun(t, "strategy=collective&gpus=8&size=64MiB"), scene.Options{Width: 800, Height: 500}},
		{"cluster 2x4", clusterRun(t, cluster.Spec{Nodes: 2, PerNode: 4}, "ring", taskgraph.Detailed), scene.Options{Width: 960, Height: 600}},
		{"cluster 2x4 dark presenter", clusterRun(t, cluster.Spec{Nodes: 2, PerNode: 4}, "ring", taskgraph.Detailed), scene.Options{Width: 900, Height: 560, Theme: scene.ThemeDark, Present: true}},
		{"training", simulate(t, "llama3-8b-2x8.yaml", ""), scene.Options{Width: 960, Height: 600}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := scene.NewFrames(c.tl)
			var d scene.Damage
			var prev *image.RGBA
			const frames = 30
			small := 0
			for k := 0; k <= frames; k++ {
				// Uneven steps: some frames barely move, some jump.
				at := c.tl.End * units.Time(k*k) / units.Time(frames*frames)
				dl := f.Build(at, c.opt)
				regions, full := d.Update(dl)
				img, err := r.Draw(dl)
				if err != nil {
					t.Fatal(err)
				}
				cur := image.NewRGBA(img.Rect)
				copy(cur.Pix, img.Pix)
				if k == 0 && !full {
					t.Fatalf("frame 0: want a full repaint first")
				}
				if !full {
					checkRegions(t, k, regions, cur.Rect)
					area := 0
					for _, g := range regions {
						area += g.Area()
					}
					if area*4 < cur.Rect.Dx()*cur.Rect.Dy() {
						small++
					}
					if x, y, ok := changedOutside(prev, cur, regions); ok {
						t.Fatalf("frame %d (t=%v): pixel (%d,%d) changed outside the %d damaged regions %v", k, at, x, y, len(regions), regions)
					}
				}
				prev = cur
			}
			t.Logf("%d of %d frames repainted under a quarter of the canvas", small, frames)
			if c.name != "training" && small < frames/2 {
				t.Errorf("only %d of %d frames repainted under a quarter of the canvas; want most", small, frames)
			}
		})
	}
}

func queryRun(t testing.TB, q string) *timeline.Timeline {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.FromQuery(v)
	if err != nil {
		t.Fatal(err)
	}
	return mustSimulate(t, s)
}

func checkRegions(t *testing.T, frame int, rs []scene.Region, canvas image.Rectangle) {
	t.Helper()
	if len(rs) > scene.MaxRegions {
		t.Errorf("frame %d: %d regions, want at most %d", frame, len(rs), scene.MaxRegions)
	}
	for i, a := range rs {
		if a.Empty() || a.X0 < canvas.Min.X || a.Y0 < canvas.Min.Y || a.X1 > canvas.Max.X || a.Y1 > canvas.Max.Y {
			t.Errorf("frame %d: region %v empty or outside the canvas %v", frame, a, canvas)
		}
		for _, b := range rs[i+1:] {
			if a.Overlaps(b) {
				t.Errorf("frame %d: regions %v and %v overlap", frame, a, b)
			}
		}
	}
}

// changedOutside returns a pixel that differs between a and b outside
// every region.
func changedOutside(a, b *image.RGBA, rs []scene.Region) (int, int, bool) {
	w, h := b.Rect.Dx(), b.Rect.Dy()
	inside := make([]bool, w*h)
	for _, r := range rs {
		for y := r.Y0; y < r.Y1; y++ {
			for x := r.X0; x < r.X1; x++ {
				inside[y*w+x] = true
			}
		}
	}
	for y := 0; y < h; y++ {
		row := y * b.Stride
		for x := 0; x < w; x++ {
			if !inside[y*w+x] && !bytes.Equal(a.Pix[row+4*x:row+4*x+4], b.Pix[row+4*x:row+4*x+4]) {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}

// TestDamageUpdate checks the bookkeeping on hand-made lists: a first frame
// and a resize repaint everything, an unchanged frame nothing, a moved item
// its old and new places, an insertion only the new item.
func TestDamageUpdate(t *testing.T) {
	box := func(id string, x float64) scene.Item {
		return scene.Item{ID: id, Shape: scene.Rect, X: x, Y: 10, W: 10, H: 10, Fill: scene.Color{R: 200, A: 255}}
	}
	list := func(w float64, items ...scene.Item) scene.DrawList {
		return scene.DrawList{Width: w, Height: 100, Items: items}
	}
	var d scene.Damage
	steps := []struct {
		name string
		dl   scene.DrawList
		full bool
		want []scene.Region
	}{
		{"first frame", list(200, box("a", 10), box("b", 50)), true, nil},
		{"unchanged", list(200, box("a", 10), box("b", 50)), false, nil},
		{"b moves", list(200, box("a", 10), box("b", 100)), false, []scene.Region{{49, 9, 61, 21}, {99, 9, 111, 21}}},
		{"c inserted between", list(200, box("a", 10), box("c", 150), box("b", 100)), false, []scene.Region{{149, 9, 161, 21}}},
		{"a deleted", list(200, box("c", 150), box("b", 100)), false, []scene.Region{{9, 9, 21, 21}}},
		{"resized", list(300, box("c", 150), box("b", 100)), true, nil},
	}
	for _, s := range steps {
		got, full := d.Update(s.dl)
		if full != s.full || fmt.Sprint(sorted(got)) != fmt.Sprint(s.want) && !(len(got) == 0 && len(s.want) == 0) {
			t.Errorf("%s: Update = %v, full %v; want %v, full %v", s.name, got, full, s.want, s.full)
		}
	}
}

func sorted(rs []scene.Region) []scene.Region {
	out := append([]scene.Region(nil), rs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j].X0 < out[i].X0 || out[j].X0 == out[i].X0 && out[j].Y0 < out[i].Y0 {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// BenchmarkDamage64GPUCluster measures the per-frame bookkeeping on the
// 8×8 H100 ring, the app's busiest 64-GPU view (about 7,000 items).
func BenchmarkDamage64GPUCluster(b *testing.B) {
	tl := clusterRun(b, cluster.Spec{Nodes: 8, PerNode: 8}, "ring", taskgraph.Detailed)
	f := scene.NewFrames(tl)
	opt := scene.Options{Width: 1280, Height: 800}
	var d scene.Damage
	var dl scene.DrawList
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		f.BuildInto(&dl, tl.End*units.Time(i%1000)/1000, opt)
		d.Update(dl)
	}
}
