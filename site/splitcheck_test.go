package site

import (
	"regexp"
	"strings"
	"testing"
)

var (
	roundRE  = regexp.MustCompile(`round: simulated ([0-9.]+ [µm]?s); [^=]* = ([0-9.]+ [µm]?s)`)
	memoryRE = regexp.MustCompile(`largest compute node: simulated ([0-9.]+ GiB); [^=]* = ([0-9.]+ GiB)`)
)

// TestSplitCaptions: every split demo's caption prints the simulated round
// beside its closed form, and for split learning the largest compute
// node's memory beside its formula; the two agree. The multi-hop caption
// also names what one hop would need, and the one-hop VGG-19 run on an
// 80 GB A100 is flagged out of memory.
func TestSplitCaptions(t *testing.T) {
	const base = "strategy: split-learning\niterations: 2\n"
	for _, tt := range []struct {
		name, yaml string
		memory     bool
		want       []string
	}{
		{"one hop, slow client", base + "split: {clients: 8, speeds: '1,1,1,1,1,1,1,0.25'}\n", true, nil},
		{"four hops", base + "split: {clients: 16, hops: 4, speed_cv: 0.5}\n", true, []string{"(one hop: "}},
		{"vgg19 one hop OOM", "strategy: split-learning\nsplit: {model: vgg19, clients: 100, compute_gpu: a100-sxm-80gb}\n", true,
			[]string{"simulated 112.3 GiB", "out of memory"}},
		{"fedavg", base + "split: {mode: fedavg, clients: 8, local_steps: 3, speeds: '1,1,1,1,1,1,1,0.25'}\n", false, []string{"(the model)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := captionOf(t, tt.yaml)
			for _, re := range []*regexp.Regexp{roundRE, memoryRE} {
				if re == memoryRE && !tt.memory {
					continue
				}
				m := re.FindStringSubmatch(got)
				if m == nil {
					t.Fatalf("caption %q has no simulated-vs-formula pair for %v", got, re)
				}
				if m[1] != m[2] {
					t.Errorf("caption %q: simulated %s, formula %s", got, m[1], m[2])
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("caption %q lacks %q", got, w)
				}
			}
		})
	}
}
