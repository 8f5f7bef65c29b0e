//go:build !js

package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRunPrintsTheScalingBookLines: paraplay run on the scaling book's
// worked examples prints the figures beside the book's.
func TestRunPrintsTheScalingBookLines(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"scaling-book-dp-one-axis.yaml", "compute-bound above 2380 tokens per chip (the book's e·C/W_ici: 2550"},
		{"scaling-book-dp-three-axes.yaml", "compute-bound above 822 tokens per chip (the book's e·C/W_ici: 850"},
		{"scaling-book-llama3-70b-v5p.yaml", "6·N·T/(chips·e·C) = 44.7 days; simulated 47.6"},
		// The traffic table: a row per mesh axis, x, y, z and DCN (tpu-pods.md quotes it).
		{"tpu-v5p-two-slices-maxtext.yaml", "    data (dp, ZeRO/FSDP)                               0.000    1.578    5.317    0.292\n" +
			"    model (tp)                                         1.500    0.000    0.000    0.000\n" +
			"    seq (cp)                                           0.000    0.281    0.000    0.000\n"},
	} {
		var out, errOut bytes.Buffer
		if code := Main([]string{"run", "../../training/testdata/" + c.file}, &out, &errOut); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.file, code, errOut.String())
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%s: output lacks %q:\n%s", c.file, c.want, out.String())
		}
	}
}

// TestPlanOnATPUSlice: paraplay plan --topology searches meshes on the
// slice, and refuses a --gpus that is not its chip count.
func TestPlanOnATPUSlice(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"plan", "--model", "gpt3-1.3b", "--gpu", "tpu-v5p", "--topology", "4x4x4", "--global-batch", "64", "--top", "3", "--quiet"}
	if code := Main(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"on a 4x4x4 slice of tpu-v5p (64 chips)", "  mesh ", "mesh_"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	errOut.Reset()
	if code := Main(append(args, "--gpus", "32"), &out, &errOut); code == 0 || !strings.Contains(errOut.String(), "--gpus") {
		t.Errorf("--gpus 32 on a 64-chip slice: exit %d, %q; want an error naming --gpus", code, errOut.String())
	}
}
