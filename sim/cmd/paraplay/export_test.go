package main

import (
	"bytes"
	"image/gif"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/scene"
	"paraplay/sim/units"
)

func TestExportPNGAndSVG(t *testing.T) {
	dir := t.TempDir()
	pngOut := filepath.Join(dir, "ring.png")
	var errOut bytes.Buffer
	if code := Main([]string{"export", example, "--out", pngOut, "--width", "480", "--height", "300", "--at", "7ms"}, &bytes.Buffer{}, &errOut); code != 0 {
		t.Fatalf("png: exit %d: %s", code, errOut.String())
	}
	f, err := os.Open(pngOut)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 480 || b.Dy() != 300 {
		t.Errorf("PNG is %v, want 480×300", b)
	}
	var svg bytes.Buffer
	if code := Main([]string{"export", example, "--format", "svg", "--out", "-", "--present"}, &svg, &errOut); code != 0 {
		t.Fatalf("svg: exit %d: %s", code, errOut.String())
	}
	if s := svg.String(); !strings.HasPrefix(s, "<svg") || !strings.Contains(s, `fill="#16191e"`) {
		t.Errorf("svg with --present: want a dark SVG, got %.200s", s)
	}
}

func TestExportGIFFromURL(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ring.gif")
	var errOut bytes.Buffer
	args := []string{"export", "--url", "https://example.org/play.html?gpus=4&algo=ring&speed=2#x", "--out", out,
		"--width", "320", "--height", "200", "--fps", "10"}
	if code := Main(args, &bytes.Buffer{}, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "100%") {
		t.Errorf("no progress bar on stderr: %q", errOut.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if g.Config.Width != 320 || g.Config.Height != 200 || len(g.Image) < 10 {
		t.Errorf("GIF %d×%d with %d frames; want 320×200 and at least 10", g.Config.Width, g.Config.Height, len(g.Image))
	}
}

func TestExportBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{example, "--out", "x.gif", "--fps", "0"}, "--fps 0; want 1..50"},
		{[]string{example, "--out", "x.gif", "--width", "10"}, "--width 10; want 64..16384"},
		{[]string{example, "--out", "x.gif", "--height", "1e9"}, "--height 1e+09; want 64..16384"},
		{[]string{example, "--out", "x.bmp"}, `--format "bmp"; want gif, png or svg`},
		{[]string{example}, "--out is required"},
		{[]string{example, "--out", "x.gif", "--view", "gpus"}, `--view "gpus"; want one of all, cluster, timeline, memory`},
		{[]string{example, "--out", "x.gif", "--speed", "0"}, `--speed "0"; want a multiplier 0.01..1000`},
		{[]string{example, "--out", "x.gif", "--from", "soon"}, `--from "soon"`},
		{[]string{example, "--out", "x.gif", "--to", "1s"}, "--to 1s; want 0..10.056534ms"},
		{[]string{example, "--out", "x.png", "--at", "1s"}, "--at 1s; want 0..10.056534ms"},
		{[]string{"--url", "play.html?gpus=0", "--out", "x.gif"}, "gpus"},
		{[]string{example, "--url", "play.html?gpus=4", "--out", "x.gif"}, "not both"},
		{[]string{example, "--out", "x.gif", "--theme", "blue"}, `--theme "blue"; want light or dark`},
		{[]string{example, "--out", "x.gif", "--width", "16384", "--height", "16384"}, "--width × --height: a GIF frame of 16384×16384 pixels is more than 64 M pixels (8192×8192)"},
	}
	for _, tc := range tests {
		var errOut bytes.Buffer
		code := Main(append([]string{"export"}, tc.args...), &bytes.Buffer{}, &errOut)
		if code != exitUsage || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("export %v: exit %d, stderr %q; want exit %d naming %q", tc.args, code, errOut.String(), exitUsage, tc.want)
		}
	}
}

// FuzzExportFlags: any export command line (without its scenario) is
// either a picture to draw, with instants ≥ 0 and a known view, or errors
// that each name a flag; never a panic.
func FuzzExportFlags(f *testing.F) {
	f.Add("--view timeline --from 2ms --to 8ms --out x.gif")
	f.Add("--view memory --at 1.5s --out x.png --width 4096 --height 2160 --theme dark --present")
	f.Add("--view gpus --from -1ms --to soon --fps 0 --width NaN --out x.bmp")
	f.Add("--from 0 --to 0 --at 1e300s --width 16384 --height 16384 --out x.gif")
	f.Add("--view all --from 9223372036854775807ns --to 1h --out -")
	f.Fuzz(func(t *testing.T, line string) {
		var fl exportFlags
		fs := exportFlagSet(&fl, io.Discard)
		if _, err := parseInterleaved(fs, strings.Fields(line)); err != nil {
			return
		}
		j, errs := fl.picture()
		for _, err := range errs {
			if !strings.HasPrefix(err.Error(), "--") {
				t.Errorf("error %q names no flag", err)
			}
		}
		if len(errs) > 0 {
			return
		}
		if j.from < 0 || j.to < 0 || j.at < 0 {
			t.Errorf("accepted instants from %v to %v at %v; want ≥ 0", j.from, j.to, j.at)
		}
		if err := j.opt.Validate(); err != nil {
			t.Errorf("accepted options that fail scene's check: %v", err)
		}
		if j.format == "gif" {
			a := scene.Animation{Options: j.opt, FPS: j.fps, From: j.from, To: j.to, Speed: 1}
			a.Validate(10 * units.Millisecond) // must not panic, whatever the instants
		}
	})
}
