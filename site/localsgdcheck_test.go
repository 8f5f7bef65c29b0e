package site

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// TestLocalSGDRunFormula checks the caption's closed form for a local-SGD
// run against the simulated run, to the microsecond, over a WAN-like link
// with and without compression, and against a value worked out by hand;
// and that the caption leaves it out where it does not hold.
func TestLocalSGDRunFormula(t *testing.T) {
	const base = "strategy: local-sgd\ngpus: 4\nlink: {bandwidth: 100MB/s, latency: 30ms}\ncompute: {forward: 200ms, backward: 400ms}\ncollective: {size: 2.6GB}\niterations: 16\n"
	tests := []struct {
		name, yaml string
		hand       float64 // seconds, worked out by hand
	}{
		// 16·0.6 s + 2·(1.5·2.6 GB/(100 MB/s) + 6·30 ms) = 9.6 + 2·39.18 s.
		{"H=8", base + "sync: {period: 8}\n", 9.6 + 2*39.18},
		// Encoding 2.6e9/2^20 MiB · 1 ms and an all-reduce of 26 MB,
		// 1.5·26e6/1e8 + 0.18 s, per averaging.
		{"H=8 compressed", base + "sync: {period: 8}\ncompression: {ratio: 0.01, time_per_mib: 1ms}\n", 9.6 + 2*(2.6e9/(1<<20)*1e-3+0.39+0.18)},
		{"H=1", base + "sync: {period: 1}\n", 9.6 + 16*39.18},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := scenario.Parse([]byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			d, err := newDemo("test", 1, s, demoView{Speed: 1})
			if err != nil {
				t.Fatal(err)
			}
			got, ok, err := localSGDRunSeconds(s, d.summary)
			if err != nil || !ok {
				t.Fatalf("localSGDRunSeconds: ok %v, err %v", ok, err)
			}
			if sim := d.summary.Iteration.Seconds(); math.Abs(got-sim) > 1e-6 {
				t.Errorf("closed form %.6f s, simulated %.6f s", got, sim)
			}
			if math.Abs(got-tt.hand) > 1e-6 {
				t.Errorf("closed form %.6f s, by hand %.6f s", got, tt.hand)
			}
			if c := d.metrics(); !strings.Contains(c, "run: simulated ") {
				t.Errorf("caption %q lacks the closed form", c)
			}
		})
	}
	for _, off := range []string{"sync: {period: 8, layers: 4}\n", "sync: {period: 8, speeds: '1,1,1,0.5'}\n", "sync: {period: 5}\n"} {
		if c := captionOf(t, base+off); strings.Contains(c, "K·(F+B)") {
			t.Errorf("%q: caption %q prints the closed form where it does not hold", off, c)
		}
	}
}
