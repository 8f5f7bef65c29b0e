package site

import (
	"regexp"
	"testing"
)

// TestRLHFCaptions checks that every placement's caption prints a
// simulated figure equal (to the digits shown) to its closed form.
func TestRLHFCaptions(t *testing.T) {
	stepRE := regexp.MustCompile(`simulated step ([^;]+); [^=]+ = ([^·]+?)( ·|$)`)
	rateRE := regexp.MustCompile(`simulated steady rate ([^;]+); [^=]+ = ([^·]+?)( ·|$)`)
	const base = "strategy: rlhf\ngpus: 8\n"
	for _, tt := range []struct {
		name, yaml string
		re         *regexp.Regexp
	}{
		{"co-located", base + "iterations: 2\nrlhf: {placement: co-located, gen_tp: 2}", stepRE},
		{"interleaved", base + "iterations: 2\nrlhf: {placement: interleaved, gen_gpus: 4, gen_tp: 2, gen_gpu: h100-sxm}", stepRE},
		{"synchronous", base + "iterations: 3\nrlhf: {placement: disaggregated, gen_gpus: 4, staleness: 0}", stepRE},
		{"steady", base + "iterations: 16\nrlhf: {placement: disaggregated, gen_gpus: 4}", rateRE},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := captionOf(t, tt.yaml)
			t.Log(got)
			m := tt.re.FindStringSubmatch(got)
			if m == nil {
				t.Fatalf("caption %q has no simulated-vs-formula pair", got)
			}
			if m[1] != m[2] {
				t.Errorf("caption %q: simulated %s, formula %s", got, m[1], m[2])
			}
		})
	}
}
