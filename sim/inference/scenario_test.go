package inference_test

import (
	"errors"
	"net/url"
	"paraplay/sim/inference"
	_ "paraplay/sim/run"
	"paraplay/sim/scenario"
	"strings"
	"testing"
)

// inferenceScenario is a valid serving scenario to break one field at a time.
func inferenceScenario() scenario.Scenario {
	s := scenario.Default()
	s.Strategy, s.GPUs, s.Cluster.GPU, s.Model.Preset = inference.Name, 4, "h100-sxm", "llama3-8b"
	s.Parallel.PP = 4
	return s
}

func TestValidateInference(t *testing.T) {
	if s := inferenceScenario(); s.Validate() != nil {
		t.Fatalf("valid scenario rejected: %v", s.Validate())
	}
	for _, tc := range []struct {
		field string
		edit  func(*scenario.Scenario)
	}{
		{"inference.requests", func(s *scenario.Scenario) { inference.Edit(s, func(in *inference.Settings) { in.Requests = 0 }) }},
		{"inference.prompt", func(s *scenario.Scenario) {
			inference.Edit(s, func(in *inference.Settings) { in.Prompt = inference.MaxPrompt + 1 })
		}},
		{"inference.output", func(s *scenario.Scenario) { inference.Edit(s, func(in *inference.Settings) { in.Output = 0 }) }},
		{"inference.output", func(s *scenario.Scenario) {
			inference.Edit(s, func(in *inference.Settings) {
				in.Output = inference.MaxOutput
				in.Requests, in.Microbatches = 64, 64
			})
		}},
		{"inference.microbatches", func(s *scenario.Scenario) { inference.Edit(s, func(in *inference.Settings) { in.Microbatches = 9 }) }},
		{"inference.sampling", func(s *scenario.Scenario) { inference.Edit(s, func(in *inference.Settings) { in.Sampling = "tpu" }) }},
		{"inference.shared_weights", func(s *scenario.Scenario) {
			inference.Edit(s, func(in *inference.Settings) { in.SharedWeights = "copy" })
		}},
		{"inference.shared_weights", func(s *scenario.Scenario) {
			inference.Edit(s, func(in *inference.Settings) { in.SharedWeights = inference.SharedFetch })
		}},
		{"inference.sample_time", func(s *scenario.Scenario) { inference.Edit(s, func(in *inference.Settings) { in.SampleTime = -1 }) }},
		{"inference.host_time", func(s *scenario.Scenario) {
			inference.Edit(s, func(in *inference.Settings) { in.HostTime = 2 * inference.MaxHostTime })
		}},
		{"inference.send_overhead", func(s *scenario.Scenario) { inference.Edit(s, func(in *inference.Settings) { in.SendOverhead = -5 }) }},
		{"cluster.gpu", func(s *scenario.Scenario) { s.Cluster.GPU = "" }},
		{"gpus", func(s *scenario.Scenario) { s.Parallel.PP = 2 }},
		{"parallel.tp", func(s *scenario.Scenario) { s.Parallel.PP, s.Parallel.TP = 1, 3; s.GPUs = 3 }},
		{"parallel.pp", func(s *scenario.Scenario) { s.Parallel.PP = 0 }},
		{"model.preset", func(s *scenario.Scenario) { s.Model.Preset = "" }},
	} {
		s := inferenceScenario()
		tc.edit(&s)
		err := s.Validate()
		var fe *scenario.FieldError
		found := false
		for _, e := range scenario.Problems(err) {
			if errors.As(e, &fe) && fe.Field == tc.field {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: Validate() = %v, want a scenario.FieldError naming %s", tc.field, err, tc.field)
		}
	}
}

func TestInferenceQueryRoundTrip(t *testing.T) {
	q, _ := url.ParseQuery("strategy=inference&gpus=4&gpu=h100-sxm&model=llama3-8b&pp=4&requests=8&prompt=256&output=16&sampling=cpu&async_host=true&host_time=200us")
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	in := inference.SettingsOf(&s)
	if !in.AsyncHost || in.Sampling != inference.SampleCPU || in.Output != 16 {
		t.Errorf("decoded %+v", in)
	}
	back, err := scenario.FromQuery(s.Query())
	if err != nil || inference.SettingsOf(&back) != in {
		t.Errorf("round trip: %+v, %v; want %+v", inference.SettingsOf(&back), err, in)
	}
	if d := s.Describe(); !strings.Contains(d, "sampling on cpu") || !strings.Contains(d, "pp 4") {
		t.Errorf("Describe() = %q", d)
	}
}
