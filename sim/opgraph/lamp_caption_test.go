//go:build !js

package opgraph

import (
	"strings"
	"testing"

	"paraplay/sim/strategytest"
)

// TestLAMPCaption reads the caption of the 3D-parallelism article's LAMP
// demo: the stages' memory beside one GPU's need, the skip traffic, and
// the iteration beside GPipe's flow shop, which on free links it matches.
func TestLAMPCaption(t *testing.T) {
	const unet = "strategy: opgraph\ngraph: {model: unet3d, volume: 256, channels: 32, levels: 4, split: model, batch: 2, microbatches: 2}\n"
	for _, c := range []struct{ name, cluster, want string }{
		{"nvlink", "cluster: {gpu: h100-sxm, gpus_per_node: 4}\n", "the links add"},
		{"ideal", "cluster: {gpu: h100-sxm, gpus_per_node: 8, network: ideal}\n", "3(Σf + (m−1)·max f) = "},
	} {
		t.Run(c.name, func(t *testing.T) {
			parts, _, sum := strategytest.Caption(t, Strategy{}, unet+c.cluster)
			var texts []string
			for _, p := range parts {
				texts = append(texts, text(p))
			}
			all := strings.Join(texts, "; ")
			t.Logf("%s", all)
			if !strings.Contains(all, c.want) || !strings.Contains(all, "one GPU would need") || !strings.Contains(all, "simulated") {
				t.Errorf("caption lacks %q: %s", c.want, all)
			}
			if last := parts[len(parts)-1]; c.name == "ideal" && (!last.Agrees() || last.Check == nil) {
				t.Errorf("on free links the iteration %v should match the flow shop: %s", sum.Iteration, text(last))
			}
		})
	}
}
