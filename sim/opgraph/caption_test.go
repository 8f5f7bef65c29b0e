//go:build !js

package opgraph

import (
	"strconv"
	"strings"
	"testing"

	"paraplay/sim/strategy"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// TestCaptions reads the captions of the articles' demos: the hybrid on
// free links sets its iteration beside 3E + 3W·c + 3f; on NVLink it says
// what the links add; a DAPPLE split names the planner's choice and the
// best uniform split, and the planner's is never slower than either the
// split shown or the uniform one.
func TestCaptions(t *testing.T) {
	const lstm = "strategy: opgraph\ngraph: {model: seq2seq-lstm, words: 30, batch: 256, "
	const h100 = "cluster: {gpu: h100-sxm, gpus_per_node: "
	for _, c := range []struct{ name, yaml, want string }{
		{"resnet dp", "strategy: opgraph\n" + h100 + "8}\ngraph: {model: resnet50, batch: 256}\n", "all-reduce (ring)"},
		{"hybrid ideal", lstm + "split: hybrid, batch: 128}\n" + h100 + "4, network: ideal}\n", "3E + 3W·c + 3f = "},
		{"hybrid nvlink", lstm + "split: hybrid, batch: 128}\n" + h100 + "4}\n", "the links add"},
		{"gpipe", lstm + "split: model, microbatches: 8}\n" + h100 + "8}\n", "8 stages"},
		{"dapple", lstm + "split: model, microbatches: 8, stage_replicas: '1,1,2,4'}\n" + h100 + "8}\n", "DAPPLE's planner"},
	} {
		t.Run(c.name, func(t *testing.T) {
			parts, sum := captionSays(t, strings.Replace(c.yaml, "batch: 256, split: hybrid, batch: 128", "split: hybrid, batch: 128", 1), c.want)
			if c.name == "hybrid ideal" {
				strategytest.Checked(t, parts, "seq2seq hybrid iteration")
			}
			if c.name == "dapple" {
				p := parts[len(parts)-1]
				if planned, uniform := units.Time(p.Values[0].V), units.Time(p.Values[1].V); planned > sum.Iteration || planned > uniform {
					t.Errorf("planner %v, this split %v, best uniform %v: the planner must be no slower", planned, sum.Iteration, uniform)
				}
			}
		})
	}
}

// captionSays is yaml's caption, failing t unless its text, logged,
// holds want and "simulated".
func captionSays(t *testing.T, yaml, want string) ([]strategy.Part, timeline.Summary) {
	t.Helper()
	parts, _, sum := strategytest.Caption(t, Strategy{}, yaml)
	var texts []string
	for _, p := range parts {
		texts = append(texts, text(p))
	}
	all := strings.Join(texts, "; ")
	t.Logf("%s", all)
	if !strings.Contains(all, want) || !strings.Contains(all, "simulated") {
		t.Errorf("caption lacks %q or \"simulated\": %s", want, all)
	}
	return parts, sum
}

// text is p with its values written plainly, for the log.
func text(p strategy.Part) string {
	s := p.Text
	for _, v := range p.Values {
		f := v.V
		switch v.Unit {
		case strategy.Nanoseconds:
			s = strings.Replace(s, "{}", units.Time(f).String(), 1)
		default:
			s = strings.Replace(s, "{}", strings.TrimRight(strings.TrimRight(strconvF(f), "0"), "."), 1)
		}
	}
	return s
}

func strconvF(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }
