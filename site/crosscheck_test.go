package site

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// captionOf runs a scenario as a demo and returns its caption's numbers.
func captionOf(t *testing.T, yaml string) string {
	t.Helper()
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	d, err := newDemo("test", 1, s, demoView{Speed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return d.metrics()
}

const pipelineYAML = `gpus: 4
cluster: {network: ideal}
model:
  synthetic: {forward: 1ms, backward_input: 1500us, backward_weight: 700us}
parallel: {pp: 4, microbatches: 8, `

var (
	bubbleRE = regexp.MustCompile(`simulated bubble ([0-9.]+%); formula .* = ([0-9.]+%)`)
	commRE   = regexp.MustCompile(`simulated ([0-9.]+ [µm]?s); α–β formula .* = ([0-9.]+ [µm]?s)`)
)

// TestCaptionCrossChecks checks that the caption prints the simulated
// figure beside its closed form, and that the two agree: the bubble of
// each schedule with a closed form, and the time of each collective.
func TestCaptionCrossChecks(t *testing.T) {
	for _, tt := range []struct {
		name, yaml string
		re         *regexp.Regexp
		want       string // the two figures, when the test pins them
	}{
		{"1f1b", pipelineYAML + "schedule: 1f1b}", bubbleRE, "27.3%"},
		{"gpipe", pipelineYAML + "schedule: gpipe}", bubbleRE, "27.3%"},
		{"interleaved", pipelineYAML + "schedule: interleaved, virtual_stages: 2}", bubbleRE, "15.8%"},
		{"zb-h1", pipelineYAML + "schedule: zb-h1}", bubbleRE, ""},
		{"zb-h2", pipelineYAML + "schedule: zb-h2}", bubbleRE, ""},
		{"local-loss", pipelineYAML + "schedule: local-loss}", bubbleRE, "0.0%"},
		{"ring", "gpus: 8\ncollective: {size: 256MiB}", commRE, ""},
		{"ring latency-bound", "gpus: 8\nlink: {latency: 10us}\ncollective: {size: 64KiB}", commRE, ""},
		{"tree", "strategy: collective\ngpus: 16\ncollective: {algorithm: tree, size: 64KiB}", commRE, ""},
		{"halving-doubling", "strategy: collective\ngpus: 16\ncollective: {algorithm: halving_doubling, size: 1MiB}", commRE, ""},
		{"hierarchical h100", "strategy: collective\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4}\ncollective: {algorithm: hierarchical, size: 256MiB}", commRE, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := captionOf(t, tt.yaml)
			m := tt.re.FindStringSubmatch(got)
			if m == nil {
				t.Fatalf("caption %q has no simulated-vs-formula pair", got)
			}
			if m[1] != m[2] {
				t.Errorf("caption %q: simulated %s, formula %s", got, m[1], m[2])
			}
			if tt.want != "" && m[1] != tt.want {
				t.Errorf("caption %q: got %s, want %s", got, m[1], tt.want)
			}
		})
	}
}

// TestCaptionEqualTimes pins the 1F1B example of the issue: 27.3% both.
func TestCaptionEqualTimes(t *testing.T) {
	got := captionOf(t, "gpus: 4\ncluster: {network: ideal}\nmodel:\n  synthetic: {forward: 1ms, backward_input: 1ms, backward_weight: 1ms}\nparallel: {pp: 4, microbatches: 8, schedule: 1f1b}")
	want := "iteration 33 ms · simulated bubble 27.3%; formula (p−1)/(m+p−1) = 27.3% (p = 4, m = 8)"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestCaptionLocalLoss pins the local-loss pipeline's caption: no bubble,
// and an iteration of m(T_F+T_B+T_W)+(p−1)T_F = 8·3 + 3·1 = 27 ms.
func TestCaptionLocalLoss(t *testing.T) {
	got := captionOf(t, "gpus: 4\ncluster: {network: ideal}\nmodel:\n  synthetic: {forward: 1ms, backward_input: 1ms, backward_weight: 1ms}\nparallel: {pp: 4, microbatches: 8, schedule: local-loss}")
	want := "iteration 27 ms · simulated bubble 0.0%; formula b/(m(T_F+T_B+T_W)+b) = 0.0% (b = 0, p = 4, m = 8) · simulated iteration 27 ms; formula m(T_F+T_B+T_W)+(p−1)T_F = 27 ms"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestCaptionSimulatedOnly checks the schedules without a closed form and
// real models: numbers from the run, no formula.
func TestCaptionSimulatedOnly(t *testing.T) {
	for _, tt := range []struct {
		name, yaml string
		want       []string
	}{
		{"zb-v", pipelineYAML + "schedule: zb-v}", []string{"simulated bubble", "no simple closed form"}},
		{"llama3-8b", "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\nparallel: {dp: 2, tp: 4, pp: 2, microbatches: 8}",
			[]string{"tokens/s", "MFU ", "bubble ", "peak memory per GPU stage 0 ", ", stage 1 "}},
		{"oom", "model: {preset: llama3-70b}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 8, microbatches: 1}",
			[]string{"OOM on 8 of 8 GPUs"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := captionOf(t, tt.yaml)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("caption %q lacks %q", got, w)
				}
			}
			if strings.Contains(got, "formula") && tt.name != "zb-v" {
				t.Errorf("caption %q shows a formula", got)
			}
		})
	}
}

var longRE = regexp.MustCompile(`goodput ([0-9.]+)%; Daly's closed form ([0-9.]+)% at τ = ([0-9.]+m)`)

// TestCaptionLongRun checks a long run's caption: its simulated goodput
// beside Daly's closed form, which over 30 days of ~230 failures agree to
// within a point, and Young's interval from the same MTBF.
func TestCaptionLongRun(t *testing.T) {
	got := captionOf(t, `model: {preset: llama3-8b}
cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}
parallel: {dp: 2, tp: 8}
recovery: {checkpoint_interval: 15m, checkpoint_cost: 30s, restart_cost: 10m, heartbeat_timeout: 30s}
failures: {rate_per_node_day: 3.8796, duration: 30d}
`)
	m := longRE.FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("caption %q has no goodput-vs-Daly pair", got)
	}
	sim, _ := strconv.ParseFloat(m[1], 64)
	daly, _ := strconv.ParseFloat(m[2], 64)
	if math.Abs(sim-daly) > 1 {
		t.Errorf("caption %q: simulated goodput %v%%, Daly %v%%: more than a point apart", got, sim, daly)
	}
	// 2 nodes at 3.8796 failures per node-day: MTBF 3.09 h, as the Llama 3
	// job's; Young's √(2·30 s·3.09 h) = 13.6 min.
	for _, want := range []string{"30-day run: ", "MTBF 3.09h", "Young √(2·C·MTBF) = 13.6m"} {
		if !strings.Contains(got, want) {
			t.Errorf("caption %q lacks %q", got, want)
		}
	}
}
