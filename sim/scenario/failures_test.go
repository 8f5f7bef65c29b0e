package scenario_test

import (
	"math"
	"net/url"
	_ "paraplay/sim/run"
	"paraplay/sim/scenario"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/fault"
	"paraplay/sim/units"
)

// longBase is a small training scenario: recovery and failure keys make
// one.
const longBase = "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\nparallel: {dp: 2, tp: 8}\n"

func TestFailuresSectionParses(t *testing.T) {
	s, err := scenario.Parse([]byte(longBase + `recovery:
  policy: elastic
  checkpoint_interval: 30m
  checkpoint_cost: 45s
  restart_cost: 10m
  heartbeat_timeout: 2m
  reconfigure_cost: 20s
failures:
  rate_per_node_day: 0.01
  causes: gpu:3,software:1
  seed: 7
  repair_time: 1d
`))
	if err != nil {
		t.Fatal(err)
	}
	want := scenario.Recovery{Policy: scenario.PolicyElastic, CheckpointInterval: 1800 * units.Second, CheckpointCost: 45 * units.Second,
		RestartCost: 600 * units.Second, HeartbeatTimeout: 120 * units.Second, ReconfigureCost: 20 * units.Second}
	if s.Recovery != want {
		t.Errorf("recovery = %+v, want %+v", s.Recovery, want)
	}
	wantF := scenario.Failures{RatePerNodeDay: 0.01, Causes: "gpu:3,software:1", Seed: 7, RepairTime: 86400 * units.Second}
	if s.Failures != wantF {
		t.Errorf("failures = %+v, want %+v", s.Failures, wantF)
	}
	if got := s.FailureSeed(); got != 7 {
		t.Errorf("FailureSeed() = %d, want failures.seed 7", got)
	}
	if d := scenario.Default(); d.FailureSeed() != d.Seed {
		t.Errorf("FailureSeed() of the default = %d, want the scenario seed %d", d.FailureSeed(), d.Seed)
	}
}

func TestFailuresErrorsNameTheField(t *testing.T) {
	tests := []struct{ yaml, field string }{
		{"recovery: {policy: pray}\n", "recovery.policy"},
		{"recovery: {reconfigure_cost: 8d}\n", "recovery.reconfigure_cost"},
		{"recovery: {reconfigure_cost: 5}\n", "recovery.reconfigure_cost"},
		{"failures: {rate_per_node_day: 101}\n", "failures.rate_per_node_day"},
		{"failures: {rate_per_node_day: -0.1}\n", "failures.rate_per_node_day"},
		{"failures: {causes: gpu}\n", "failures.causes"},
		{"failures: {causes: 'cosmic:1'}\n", "failures.causes"},
		{"failures: {causes: 'gpu:0'}\n", "failures.causes"},
		{"failures: {seed: x}\n", "failures.seed"},
		{"failures: {repair_time: 2y}\n", "failures.repair_time"},
		{"failures: {duration: 400d}\n", "failures.duration"},
	}
	for _, tc := range tests {
		_, err := scenario.Parse([]byte(longBase + tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.field+": ") {
			t.Errorf("%q: error %v, want one naming %s", tc.yaml, err, tc.field)
		}
	}
}

func TestFailuresQueryRoundTrip(t *testing.T) {
	q, _ := url.ParseQuery("model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=8&recovery=replan&reconfig_cost=2m&ckpt_interval=20m&fail_rate=0.002&causes=hbm3:1&fail_seed=3&repair_time=6h&heartbeat=10s")
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	if s.Recovery.Policy != scenario.PolicyReplan || s.Recovery.CheckpointInterval != 1200*units.Second || s.Failures.RepairTime != 6*3600*units.Second {
		t.Errorf("decoded %+v %+v", s.Recovery, s.Failures)
	}
	back, err := scenario.FromQuery(s.Query())
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}

// The default failure rate is the Llama 3 report's: 419 unexpected
// interruptions in 54 days on 2,048 nodes, ~0.32 per hour for the job.
func TestDefaultFailureRateIsLlama3s(t *testing.T) {
	d := scenario.Default()
	perHour := d.Failures.RatePerNodeDay * 2048 / 24
	if want := 419.0 / (54 * 24); math.Abs(perHour-want) > 1e-12 {
		t.Errorf("job failures per hour = %v, want 419/(54·24) = %v", perHour, want)
	}
	if math.Abs(perHour-0.3233) > 0.0001 {
		t.Errorf("job failures per hour = %.4f, want ≈ 0.3233", perHour)
	}
	if d.Failures.Causes != fault.DefaultMix {
		t.Errorf("causes = %q, want the Llama 3 mix %q", d.Failures.Causes, fault.DefaultMix)
	}
}
