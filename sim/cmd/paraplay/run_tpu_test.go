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
