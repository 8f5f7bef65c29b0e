package scenario

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

// inferenceScenario is a valid serving scenario to break one field at a time.
func inferenceScenario() Scenario {
	s := Default()
	s.Strategy, s.GPUs, s.Cluster.GPU, s.Model.Preset = StrategyInference, 4, "h100-sxm", "llama3-8b"
	s.Parallel.PP = 4
	return s
}

func TestValidateInference(t *testing.T) {
	if s := inferenceScenario(); s.Validate() != nil {
		t.Fatalf("valid scenario rejected: %v", s.Validate())
	}
	for _, tc := range []struct {
		field string
		edit  func(*Scenario)
	}{
		{"inference.requests", func(s *Scenario) { s.Inference.Requests = 0 }},
		{"inference.prompt", func(s *Scenario) { s.Inference.Prompt = MaxPrompt + 1 }},
		{"inference.output", func(s *Scenario) { s.Inference.Output = 0 }},
		{"inference.output", func(s *Scenario) {
			s.Inference.Output = MaxOutput
			s.Inference.Requests, s.Inference.Microbatches = 64, 64
		}},
		{"inference.microbatches", func(s *Scenario) { s.Inference.Microbatches = 9 }},
		{"inference.sampling", func(s *Scenario) { s.Inference.Sampling = "tpu" }},
		{"inference.shared_weights", func(s *Scenario) { s.Inference.SharedWeights = "copy" }},
		{"inference.shared_weights", func(s *Scenario) { s.Inference.SharedWeights = SharedFetch }},
		{"inference.sample_time", func(s *Scenario) { s.Inference.SampleTime = -1 }},
		{"inference.host_time", func(s *Scenario) { s.Inference.HostTime = 2 * MaxHostTime }},
		{"inference.send_overhead", func(s *Scenario) { s.Inference.SendOverhead = -5 }},
		{"cluster.gpu", func(s *Scenario) { s.Cluster.GPU = "" }},
		{"gpus", func(s *Scenario) { s.Parallel.PP = 2 }},
		{"parallel.tp", func(s *Scenario) { s.Parallel.PP, s.Parallel.TP = 1, 3; s.GPUs = 3 }},
		{"parallel.pp", func(s *Scenario) { s.Parallel.PP = 0 }},
		{"model.preset", func(s *Scenario) { s.Model.Preset = "" }},
	} {
		s := inferenceScenario()
		tc.edit(&s)
		err := s.Validate()
		var fe *FieldError
		found := false
		for _, e := range flatten(err) {
			if errors.As(e, &fe) && fe.Field == tc.field {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: Validate() = %v, want a FieldError naming %s", tc.field, err, tc.field)
		}
	}
}

func TestInferenceQueryRoundTrip(t *testing.T) {
	q, _ := url.ParseQuery("strategy=inference&gpus=4&gpu=h100-sxm&model=llama3-8b&pp=4&requests=8&prompt=256&output=16&sampling=cpu&async_host=true&host_time=200us")
	s, err := FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Inference.AsyncHost || s.Inference.Sampling != SampleCPU || s.Inference.Output != 16 {
		t.Errorf("decoded %+v", s.Inference)
	}
	back, err := FromQuery(s.Query())
	if err != nil || back.Inference != s.Inference {
		t.Errorf("round trip: %+v, %v; want %+v", back.Inference, err, s.Inference)
	}
	if d := s.Describe(); !strings.Contains(d, "sampling on cpu") || !strings.Contains(d, "pp 4") {
		t.Errorf("Describe() = %q", d)
	}
}
