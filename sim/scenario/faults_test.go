package scenario_test

import (
	"math"
	"net/url"
	_ "paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/units"
)

const faultYAML = `
model:
  preset: llama3-8b
  layers: 8
cluster:
  gpu: h100-sxm
  nodes: 2
  gpus_per_node: 8
  node_gpus: [h100-sxm, a100-sxm-80gb]
parallel:
  dp: 4
  tp: 4
  partition: balanced
iterations: 4
straggler: {cv: 0.1}
data: {seq_dist: lognormal, seq_cv: 0.5}
faults:
  - {at: 2.5s, gpu: 13, kind: fail_stop}
  - {at: 0s, gpu: 3, kind: fail_slow, factor: 0.4}
  - {at: 1s, kind: link_degrade, node: 1, factor: 0.25}
recovery:
  policy: elastic
  heartbeat_timeout: 20ms
`

func TestParseFaultScenario(t *testing.T) {
	s, err := scenario.Parse([]byte(faultYAML))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	want := []scenario.Fault{
		{At: 2500 * units.Millisecond, GPU: 13, Kind: scenario.FailStop},
		{GPU: 3, Kind: scenario.FailSlow, Factor: 0.4},
		{At: units.Second, Kind: scenario.LinkDegrade, Node: 1, Factor: 0.25},
	}
	if !reflect.DeepEqual(s.Faults, want) {
		t.Errorf("faults = %+v, want %+v", s.Faults, want)
	}
	if got, want := s.Cluster.NodeGPUs, []string{"h100-sxm", "a100-sxm-80gb"}; !reflect.DeepEqual(got, want) {
		t.Errorf("node_gpus = %v, want %v", got, want)
	}
	if s.Strategy != training.Name || s.Iterations != 4 || s.Straggler.CV != 0.1 || s.Parallel.Partition != "balanced" ||
		s.Data.SeqDist != "lognormal" || s.Recovery.Policy != scenario.PolicyElastic || s.Recovery.HeartbeatTimeout != 20*units.Millisecond {
		t.Errorf("parsed %+v", s)
	}
	back, err := scenario.FromQuery(s.Query())
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Errorf("URL round trip: %v\n got %+v\nwant %+v", err, back, s)
	}
}

func TestFaultErrorsNameTheField(t *testing.T) {
	base := "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4}\nparallel: {dp: 8}\n"
	tests := []struct{ in, field, more string }{
		{"faults: [{gpu: 1}]\n", "faults[0].kind", "missing"},
		{"faults: [{kind: melt, gpu: 1}]\n", "faults[0].kind", "fail_stop"},
		{"faults: [{kind: fail_slow, gpu: 1}]\n", "faults[0].factor", "0 < factor < 1"},
		{"faults: [{kind: fail_slow, gpu: 1, factor: 1.5}]\n", "faults[0].factor", "0 < factor < 1"},
		{"faults: [{kind: fail_stop, gpu: 8}]\n", "faults[0].gpu", "0..7"},
		{"faults: [{kind: fail_stop, gpu: 1}, {kind: preempt, node: 2}]\n", "faults[1].node", "0..1"},
		{"faults: [{kind: fail_stop, gpu: 1, at: soon}]\n", "faults[0].at", "soon"},
		{"faults: [{kind: fail_stop, gpu: 1, colour: red}]\n", "faults[0].colour", "unknown key"},
		{"faults: [{kind: fail_stop, gpu: 1, factor: 0.5}]\n", "faults[0].factor", "no factor"},
		{"faults: [1, 2]\n", "faults", "mapping"},
		{"faults: [{kind: fail_stop, gpu: 1}]\nrecovery: {policy: replan}\n", "recovery.policy", "checkpoint-restart, elastic, resihp"},
		{"recovery: {policy: pray}\n", "recovery.policy", "elastic"},
		{"recovery: {restart_cost: -1s}\n", "recovery.restart_cost", "non-negative"},
		{"straggler: {cv: 2}\n", "straggler.cv", "0..1"},
		{"iterations: 0\n", "iterations", "1..64"},
		{"cluster: {node_gpus: [h100-sxm]}\n", "cluster.node_gpus", "one per node"},
		{"cluster: {node_gpus: [h100-sxm, tpu9]}\n", "cluster.node_gpus", "tpu9"},
		{"parallel: {partition: random}\n", "parallel.partition", "balanced"},
		{"data: {seq_dist: zipf}\n", "data.seq_dist", "lognormal"},
	}
	for _, tc := range []struct{ in, field, more string }{
		{"strategy: collective\nstraggler: {cv: 0.1}\n", "straggler.cv", "compute.jitter"},
		{"strategy: data-parallel\nfaults: [{kind: fail_stop, gpu: 1}]\n", "faults", "training"},
	} {
		if _, err := scenario.Parse([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.field) || !strings.Contains(err.Error(), tc.more) {
			t.Errorf("scenario.Parse(%q) = %v; want an error naming %s and %q", tc.in, err, tc.field, tc.more)
		}
	}
	for _, tc := range tests {
		_, err := scenario.Parse([]byte(base + tc.in))
		if err == nil {
			t.Errorf("scenario.Parse(%q) = nil error", tc.in)
			continue
		}
		for _, w := range []string{tc.field, tc.more} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("scenario.Parse(%q) error %q does not mention %q", tc.in, err, w)
			}
		}
	}
}

func TestFaultsURL(t *testing.T) {
	q, _ := url.ParseQuery("model=llama3-8b&gpu=h100-sxm&gpus_per_node=4&dp=4&faults=kind%3Dfail_slow%2Cgpu%3D2%2Cfactor%3D0.5")
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatalf("FromQuery: %v", err)
	}
	if want := []scenario.Fault{{Kind: scenario.FailSlow, GPU: 2, Factor: 0.5}}; !reflect.DeepEqual(s.Faults, want) {
		t.Errorf("faults = %+v, want %+v", s.Faults, want)
	}
	q.Set("faults", "kind=fail_slow,gpu=9,factor=0.5")
	if _, err := scenario.FromQuery(q); err == nil || !strings.Contains(err.Error(), "faults[0].gpu") {
		t.Errorf("scenario.FromQuery with gpu 9 of 4: %v, want an error naming faults[0].gpu", err)
	}
}

func TestStragglerSigma(t *testing.T) {
	// A lognormal's cv is √(e^{σ²}−1) and its mean e^{μ+σ²/2}.
	for _, cv := range []float64{0.05, 0.1, 0.5} {
		mu, sigma := scenario.StragglerSigma(cv)
		gotCV := sqrt(exp(sigma*sigma) - 1)
		mean := exp(mu + sigma*sigma/2)
		if abs(gotCV-cv) > 1e-12 || abs(mean-1) > 1e-12 {
			t.Errorf("cv %v: σ %v gives cv %v and mean %v", cv, sigma, gotCV, mean)
		}
	}
}

func FuzzParseFaults(f *testing.F) {
	for _, s := range []string{"kind=fail_stop,at=2.5s,gpu=13", "kind=fail_slow,gpu=3,factor=0.4;kind=preempt,node=1",
		"kind=link_degrade,node=0,factor=0.1", ";;", "kind=,gpu=-1", "at=1e400s,kind=fail_stop", "factor=NaN,kind=fail_slow"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fs, err := scenario.ParseFaults(text)
		if err != nil {
			if !strings.Contains(err.Error(), "faults[") && !strings.Contains(err.Error(), "events") {
				t.Errorf("scenario.ParseFaults(%q) error %q names no event", text, err)
			}
			return
		}
		back, err := scenario.ParseFaults(scenario.FormatFaults(fs))
		if err != nil || !reflect.DeepEqual(back, fs) {
			t.Errorf("round trip of %q: %+v, %v; want %+v", text, back, err, fs)
		}
	})
}

func FuzzParseNodeGPUs(f *testing.F) {
	for _, s := range []string{"h100-sxm*2,a100-sxm-80gb*2", "h100-sxm", "*3", "a*0", "a,,b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		gs, err := scenario.ParseNodeGPUs(text)
		if err != nil {
			return
		}
		back, err := scenario.ParseNodeGPUs(scenario.FormatNodeGPUs(gs))
		if err != nil || !reflect.DeepEqual(back, gs) {
			t.Errorf("round trip of %q: %v, %v; want %v", text, back, err, gs)
		}
	})
}

func sqrt(x float64) float64 { return math.Sqrt(x) }
func exp(x float64) float64  { return math.Exp(x) }
func abs(x float64) float64  { return math.Abs(x) }
