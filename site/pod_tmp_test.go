package site

import (
	"os"
	"testing"
	"time"
)

func TestPodTmp(t *testing.T) {
	lib, err := LoadLibrary("../docs")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	docs, err := renderAll("../docs", lib)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("render all %v", time.Since(t0))
	for _, a := range docs {
		if a.Slug != "tpu-pods" {
			continue
		}
		for i, d := range a.demos {
			t.Logf("demo %d static=%v: %s", i+1, d.view.Static, d.caption)
			if d.poster.Path != "" {
				os.WriteFile("/tmp/podbench/"+a.Slug+"-"+string(rune('0'+i))+".svg", d.poster.SVG, 0o644)
				os.WriteFile("/tmp/podbench/"+a.Slug+"-"+string(rune('0'+i))+"-compact.svg", d.poster.Compact.SVG, 0o644)
			}
		}
	}
}
