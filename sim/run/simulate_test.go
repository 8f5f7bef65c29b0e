package run

import (
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

func TestSimulateRejectsInvalid(t *testing.T) {
	s := scenario.Default()
	s.GPUs = 0
	if _, err := Simulate(s); err == nil {
		t.Error("Simulate(gpus=0) = nil error")
	}
	s = scenario.Default()
	s.Strategy, s.GPUs = "collective", 1 // a lone collective needs two ranks
	if _, err := Simulate(s); err == nil || !strings.Contains(err.Error(), "gpus: is 1; allowed 2..64") {
		t.Errorf("Simulate(a collective on 1 GPU) = %v, want the gpus field's 2..64", err)
	}
}

// The compression keys of one strategy, set in another's scenario, are
// refused naming the key and the strategies that read it.
func TestCompressionKeysBelongToTheirStrategies(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"strategy: parameter-server\ncompression: {parameters: 0.5}\n", "compression.parameters: applies to training runs"},
		{"strategy: local-sgd\ncompression: {rank: 4}\n", "compression.rank: applies to training runs"},
		{"strategy: local-sgd\ncompression: {method: slim-dp, ratio: 0.2}\n", "compression.method: slim-dp applies to parameter-server runs"},
		{"model: {preset: llama3-8b, layers: 4}\ncluster: {gpu: h100-sxm, gpus_per_node: 2}\nparallel: {pp: 2}\ncompression: {method: slim-dp}\n",
			"compression.method: slim-dp applies to parameter-server runs; strategy is training"},
	} {
		_, err := scenario.Parse([]byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.yaml, err, c.want)
		}
	}
}
