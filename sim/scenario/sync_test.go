package scenario_test

import (
	"net/url"
	_ "paraplay/sim/run"
	"paraplay/sim/scenario"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/units"
)

func TestParseSync(t *testing.T) {
	s, err := scenario.Parse([]byte("strategy: parameter-server\ngpus: 4\niterations: 10\nsync: {mode: dssp, staleness: 1, staleness_range: 3, servers: 2, server_bandwidth: 50GB/s, speeds: '1, 0.5,1,0.25'}\ncompression: {ratio: 0.1, time_per_mib: 20us}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := scenario.Sync{Mode: scenario.SyncDSSP, Staleness: 1, StalenessRange: 3, Servers: 2, ServerBandwidth: 50 * units.GBps,
		Speeds: []float64{1, 0.5, 1, 0.25}, Period: 1, Layers: 1}
	if !reflect.DeepEqual(s.Sync, want) {
		t.Errorf("sync = %+v, want %+v", s.Sync, want)
	}
	if c := s.Compression; c.Ratio != 0.1 || c.TimePerMiB != 20*units.Microsecond {
		t.Errorf("compression = %+v", c)
	}
	if got := s.Describe(); !strings.Contains(got, "DSSP (s from 1 to 4)") {
		t.Errorf("Describe() = %q", got)
	}
}

func TestSyncErrorsNameTheField(t *testing.T) {
	base := "strategy: parameter-server\ngpus: 4\n"
	tests := []struct{ yaml, field, more string }{
		{"sync: {mode: gossip}\n", "sync.mode", "bsp, asp, ssp, dssp"},
		{"sync: {staleness: -1}\n", "sync.staleness", "0..1073741824"},
		{"iterations: 0\n", "iterations", "1..64"},
		{"sync: {servers: 5}\n", "sync.servers", "1..4"},
		{"sync: {speeds: '1,2'}\n", "sync.speeds", "2 speeds for 4 workers"},
		{"sync: {speeds: '1,1,1,0'}\n", "sync.speeds", "0.01..100"},
		{"sync: {speeds: '1,x,1,1'}\n", "sync.speeds", "invalid speed"},
		{"sync: {server_bandwidth: fast}\n", "sync.server_bandwidth", ""},
		{"compression: {ratio: 0}\n", "compression.ratio", "0 < ratio ≤ 1"},
		{"compression: {time_per_mib: 2s}\n", "compression.time_per_mib", "0..1s"},
		{"cluster: {gpu: h100-sxm}\n", "cluster.gpu", "ideal links"},
		{"collective: {op: broadcast, algorithm: binomial}\n", "collective.op", "all_reduce"},
	}
	for _, tc := range tests {
		_, err := scenario.Parse([]byte(base + tc.yaml))
		if err == nil {
			t.Errorf("scenario.Parse(%q) = nil error", tc.yaml)
			continue
		}
		for _, w := range []string{tc.field, tc.more} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("scenario.Parse(%q) error %q does not mention %q", tc.yaml, err, w)
			}
		}
	}
	if _, err := scenario.Parse([]byte("strategy: local-sgd\ngpus: 4\niterations: 8\nsync: {period: 9}\n")); err == nil || !strings.Contains(err.Error(), "sync.period") {
		t.Errorf("local-sgd with period > iterations: error %v, want one naming sync.period", err)
	}
	if _, err := scenario.Parse([]byte("strategy: local-sgd\ngpus: 4\nsync: {layers: 65}\n")); err == nil || !strings.Contains(err.Error(), "sync.layers") {
		t.Errorf("local-sgd with 65 layer groups: error %v, want one naming sync.layers", err)
	}
}

func TestSyncQueryRoundTrip(t *testing.T) {
	q, _ := url.ParseQuery("strategy=parameter-server&gpus=4&sync=ssp&staleness=3&speeds=1,0.5,1,0.25&servers=2&ps_bw=25GB/s&compress=0.2&compress_cost=5us")
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sync.Mode != scenario.SyncSSP || s.Sync.Staleness != 3 || len(s.Sync.Speeds) != 4 || s.Compression.Ratio != 0.2 {
		t.Errorf("decoded %+v %+v", s.Sync, s.Compression)
	}
	back, err := scenario.FromQuery(s.Query())
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if got := s.Title(); got != "Parameter server (SSP) with 4 workers" {
		t.Errorf("Title() = %q", got)
	}
}
