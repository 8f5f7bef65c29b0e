package nccltest

import (
	"strings"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/units"
)

// TestInNetworkScenarios checks the in-network all-reduces as scenarios
// of the lone collective: one that fits runs as one analytic collective
// of its closed form's length (NVLSTime on the H100's NVLink port), one
// that does not is refused at validation with collective.algorithm and
// what it needs, and another strategy's collective section does not take
// them.
func TestInNetworkScenarios(t *testing.T) {
	s, err := scenario.Parse([]byte("strategy: collective\ncluster: {gpu: h100-sxm, gpus_per_node: 8}\ncollective: {algorithm: nvls, size: 1GiB}"))
	if err != nil {
		t.Fatal(err)
	}
	tl := strategytest.MustRun(t, Simulate, s)
	c := tl.Collectives[0]
	// H100 SXM's NVLink 4 port: 369 GB/s effective, α 1.9 µs (sim/hw).
	want := units.Round(collective.NVLSTime(8, units.GiB, collective.Link{Alpha: 1900 * units.Nanosecond, Bandwidth: 369 * units.GBps}))
	if got := c.End - c.Start; c.Algorithm != "nvls" || got != want || tl.Transfers.Len() != 0 || tl.Fidelity != "analytic" {
		t.Errorf("nvls: %s collective of %v, %d transfers, %s; want nvls of %v, analytic, no transfers", c.Algorithm, got, tl.Transfers.Len(), tl.Fidelity, want)
	}
	for _, tt := range []struct{ yaml, want string }{
		{"cluster: {gpu: a100-sxm-80gb, gpus_per_node: 8}\ncollective: {algorithm: nvls}", "not nvlink3"},
		{"cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\ncollective: {algorithm: nvls}", "set cluster.nodes to 1"},
		{"gpus: 8\ncollective: {algorithm: nvls}", "cluster.gpu"},
		{"cluster: {gpu: h100-sxm, gpus_per_node: 8}\ncollective: {algorithm: collnet}", "2 or more"},
		{"cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8, inter: roce-400g}\ncollective: {algorithm: collnet}", "not roce-400g"},
		{"cluster: {gpu: h100-sxm, gpus_per_node: 8}\ncollective: {algorithm: nvls, op: all_gather}", "does not do all_gather"},
		{"cluster: {gpu: h100-sxm, gpus_per_node: 8}\ncollective: {algorithm: nvls, protocol: ll}", "simple protocol only"},
	} {
		_, err := scenario.Parse([]byte("strategy: collective\n" + tt.yaml))
		if err == nil || !strings.Contains(err.Error(), "collective.algorithm") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v; want one naming collective.algorithm and %q", tt.yaml, err, tt.want)
		}
	}
	if _, err := scenario.Parse([]byte("strategy: data-parallel\ncluster: {gpu: h100-sxm, gpus_per_node: 8}\ncollective: {algorithm: nvls}")); err == nil {
		t.Errorf("data parallelism took collective.algorithm nvls; want it refused")
	}
	if s, err = scenario.Parse([]byte("strategy: collective\ngpus: 8")); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Algorithms(), " "); !strings.HasSuffix(got, "nvls collnet") {
		t.Errorf("the lone collective's algorithms are %q; want nvls and collnet among them", got)
	}
}
