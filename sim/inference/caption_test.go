//go:build !js

package inference

import (
	"testing"

	"paraplay/sim/strategytest"
	"paraplay/sim/units"
)

const servingYAML = `strategy: inference
cluster: {gpu: h100-sxm}
model: {preset: llama3-8b}
`

// TestCaptionChecks checks that a serving demo's caption sets each
// measured figure beside its closed form and that they agree: the KV
// cache per token, the decode step's roofline time, and SiDP's freed
// weights.
func TestCaptionChecks(t *testing.T) {
	for _, tt := range []struct {
		name, yaml string
		checks     []string
		kv         units.Bytes // the KV cache per token on GPU 0
	}{
		{"pipeline", servingYAML + "gpus: 4\nparallel: {pp: 4}\ninference: {requests: 8, prompt: 256, output: 4, host_time: 200us}",
			[]string{"KV cache per token", "decode step"}, 32 * units.KiB},
		{"one stage", servingYAML + "gpus: 2\nparallel: {dp: 2}\ninference: {requests: 16, prompt: 512, output: 3}",
			[]string{"KV cache per token", "decode step"}, 128 * units.KiB},
		{"sidp fetch", servingYAML + "gpus: 4\nparallel: {dp: 4}\ninference: {requests: 4, prompt: 64, output: 2, shared_weights: fetch}",
			[]string{"KV cache per token", "weights freed"}, 128 * units.KiB},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parts, _, _ := strategytest.Caption(t, Strategy{}, tt.yaml)
			for _, c := range tt.checks {
				strategytest.Checked(t, parts, c)
			}
			if got := strategytest.Checked(t, parts, "KV cache per token").Simulated(); got != float64(tt.kv) {
				t.Errorf("KV cache %v B per token, want %v", got, tt.kv)
			}
			if tt.name == "sidp fetch" {
				// 32 layers less the 8 GPU 0 owns and its 2-layer buffer.
				if got := strategytest.Checked(t, parts, "weights freed").Simulated() / float64(units.GiB); got < 8.85 || got >= 8.95 {
					t.Errorf("weights freed %.2f GiB, want 8.9", got)
				}
			}
			strategytest.Figure(t, parts, "bubbles imbalance {}")
			strategytest.Figure(t, parts, "TTFT {}")
		})
	}
}
