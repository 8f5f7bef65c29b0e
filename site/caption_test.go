package site

import (
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

// TestCaptionEqualTimes pins how a caption is written, on the 1F1B lesson:
// 27.3% both. The strategies' own tests check the numbers.
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
