package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/validate"
)

// fakeGallery runs the real rows with kinds that return fixed figures, so
// that the page shows every badge without running the simulations.
func fakeGallery(t *testing.T) *validate.Report {
	t.Helper()
	rows, err := validate.Rows()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []validate.Kind
	for _, k := range validate.Kinds() {
		switch k.Name {
		case "training-tflops":
			k.Simulate = func(map[string]string) (float64, error) { return 120, nil } // some rows hold, some are off
		case "nccl-tests-busbw":
			k.Simulate = func(c map[string]string) (float64, error) {
				return map[string]float64{"h100-sxm": 369, "a100-sxm-80gb": 231}[c["gpu"]], nil
			}
		}
		kinds = append(kinds, k)
	}
	rep := validate.Run(rows, kinds)
	return &rep
}

func TestGalleryPage(t *testing.T) {
	root := t.TempDir()
	docs, out := filepath.Join(root, "docs"), filepath.Join(root, "out")
	writeFiles(t, docs, parseTxtar(smallSite))
	if _, err := Build(Config{DocsDir: docs, OutDir: out, Gallery: fakeGallery(t)}); err != nil {
		t.Fatal(err) // Build's Check holds the page to the CSP and its links
	}
	assertFile(t, out, "index.html", `<a href="validation.html">How close?</a>`, `<a href="validation.html">The validation gallery</a>`)
	assertFile(t, out, galleryPage,
		`<title>How close is ParaPlay? · ParaPlay</title>`,
		`<h2 id="group-megatron-lm-2021-table-1-weak-scaling-on-a100s">`,
		`<a href="#megatron-2021-1.7b">GPT 1.7B: t = 1, p = 1, 32 A100s, batch 512</a>`, `137 TFLOP/s per GPU`, `120`, `-12.4%`, `±8%`, `yes`, `badge-fails`,
		`<section class="gallery-row" id="megatron-2021-1.7b">`, `<a href="https://arxiv.org/abs/2104.04473">`, `<strong>Confirmed:</strong>`,
		`model: {preset: megatron-1.7b, attention: eager}`,
		`badge-off`, `<strong>Why it is not enforced:</strong>`,
		`<h2 id="group-nccl-tests-all-reduce-perf-bus-bandwidth">`, `370 GB/s busbw`, `369`, `-0.3%`, `badge-holds`,
		`<a href="https://github.com/NVIDIA/nccl-tests/issues/212">`,
		`<h2 id="group-gemm-model-against-measured-matmul-throughput">`, `median |error| (at most)`)
	data, _ := os.ReadFile(filepath.Join(out, galleryPage))
	if strings.Contains(string(data), "style=") || strings.Contains(string(data), "<script>") {
		t.Error("the gallery page has inline style or script")
	}
}

func TestGalleryPageWithoutAReport(t *testing.T) {
	out, _, err := buildSite(t, smallSite)
	if err != nil {
		t.Fatal(err)
	}
	assertFile(t, out, galleryPage, `This build did not run the simulations`, `137 TFLOP/s per GPU`, `—`, `not run in this build`)
}
