package site

import (
	"regexp"
	"strings"
	"testing"
)

const servingYAML = `strategy: inference
cluster: {gpu: h100-sxm}
model: {preset: llama3-8b}
`

var (
	kvRE     = regexp.MustCompile(`KV cache simulated ([0-9.]+ KiB) per token on GPU 0; .* = ([0-9.]+ KiB)`)
	decodeRE = regexp.MustCompile(`decode step \(stage 0, [^)]*\): simulated ([0-9.]+ [µm]?s); [^=]* = ([0-9.]+ [µm]?s)`)
	freedRE  = regexp.MustCompile(`weights freed on GPU 0: simulated ([0-9.]+ GiB); [^=]* = ([0-9.]+ GiB)`)
)

// TestCaptionInference checks that a serving demo's caption prints each
// measured figure beside its closed form and that they agree: the KV cache
// per token, the decode step's roofline time, and SiDP's freed weights.
func TestCaptionInference(t *testing.T) {
	for _, tt := range []struct {
		name, yaml string
		res        []*regexp.Regexp
		want       []string // first figure of each pair, when pinned
	}{
		{"pipeline", servingYAML + "gpus: 4\nparallel: {pp: 4}\ninference: {requests: 8, prompt: 256, output: 4, host_time: 200us}",
			[]*regexp.Regexp{kvRE, decodeRE}, []string{"32 KiB", ""}},
		{"one stage", servingYAML + "gpus: 2\nparallel: {dp: 2}\ninference: {requests: 16, prompt: 512, output: 3}",
			[]*regexp.Regexp{kvRE, decodeRE}, []string{"128 KiB", ""}},
		{"sidp fetch", servingYAML + "gpus: 4\nparallel: {dp: 4}\ninference: {requests: 4, prompt: 64, output: 2, shared_weights: fetch}",
			[]*regexp.Regexp{kvRE, freedRE}, []string{"128 KiB", "8.9 GiB"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := captionOf(t, tt.yaml)
			t.Log(got)
			for i, re := range tt.res {
				m := re.FindStringSubmatch(got)
				if m == nil {
					t.Fatalf("caption %q lacks %s", got, re)
				}
				if m[1] != m[2] {
					t.Errorf("caption %q: simulated %s, formula %s", got, m[1], m[2])
				}
				if tt.want[i] != "" && m[1] != tt.want[i] {
					t.Errorf("caption %q: got %s, want %s", got, m[1], tt.want[i])
				}
			}
			if !strings.Contains(got, "imbalance") || !strings.Contains(got, "TTFT") {
				t.Errorf("caption %q lacks the bubbles or the latencies", got)
			}
		})
	}
}
