package training

import (
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// TestProtocolScenarioKey: collective.protocol prices every message of
// the run as the protocol sees its links, and the summary's collective
// lines name it. LL, half the wire for flags, must make the gradient
// all-reduce slower than Simple; "auto" picks Simple for buckets of
// hundreds of MiB (LL128's 120/128 costs more than Simple's extra
// synchronisation at that size), and without the key the lines say
// "protocol none", the catalog's links as they are.
func TestProtocolScenarioKey(t *testing.T) {
	base := "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 4, gpus_per_node: 8}\nparallel: {dp: 4, tp: 8}\n"
	for _, fid := range []string{"analytic", "detailed"} {
		ar := map[string]float64{}
		for _, proto := range []string{"", "simple", "ll", "auto"} {
			y := base + "fidelity: " + fid + "\n"
			if proto != "" {
				y += "collective: {protocol: " + proto + "}\n"
			}
			s, err := scenario.Parse([]byte(y))
			if err != nil {
				t.Fatal(err)
			}
			tl, err := Simulate(s)
			if err != nil {
				t.Fatalf("%s %q: %v", fid, proto, err)
			}
			c := tl.Collectives[len(tl.Collectives)-1]
			want := proto
			if proto == "auto" {
				want = "simple"
			}
			if c.Protocol != want {
				t.Errorf("%s %q: the gradient %s records protocol %q, want %q", fid, proto, c.Name, c.Protocol, want)
			}
			var b strings.Builder
			tl.Summarize().WriteText(&b)
			line := "protocol " + want
			if want == "" {
				line = "protocol none"
			}
			if !strings.Contains(b.String(), line) {
				t.Errorf("%s %q: summary does not say %q:\n%s", fid, proto, line, b.String())
			}
			ar[proto] = (c.End - c.Start).Seconds()
		}
		if !(ar["ll"] > 1.5*ar["simple"]) || ar["auto"] != ar["simple"] {
			t.Errorf("%s: gradient all-reduce simple %.4g s, ll %.4g s, auto %.4g s; want ll ≥ 1.5× simple and auto = simple", fid, ar["simple"], ar["ll"], ar["auto"])
		}
	}
}
