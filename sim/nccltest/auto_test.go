package nccltest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// TestAutoIsNeverMuchSlower is the property NCCL's tuner is built for:
// over random sizes and clusters, the algorithm "auto" picks is never more
// than 5% slower than the fastest algorithm the same run offers, each run
// at the same fidelity. Every other run also lets auto pick NCCL's
// protocol, against every algorithm under every protocol.
func TestAutoIsNeverMuchSlower(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2026))
	gpus := []string{"h100-sxm", "a100-sxm-80gb"}
	inters := []string{"ib-ndr", "ib-hdr"}
	ops := []string{"all_reduce", "all_reduce", "broadcast", "all_gather", "reduce_scatter", "all_to_all"}
	networks := []topo.Network{topo.RailOptimized, topo.FatTree}
	picked := map[string]int{}
	for i := range 300 {
		spec := cluster.Spec{GPU: gpus[rng.IntN(2)], Nodes: 1 + rng.IntN(6), PerNode: []int{1, 2, 4, 8}[rng.IntN(4)],
			Inter: inters[rng.IntN(2)], Network: networks[rng.IntN(2)]}
		if spec.Nodes*spec.PerNode < 2 {
			spec.Nodes = 2
		}
		built, err := cluster.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		size := units.Bytes(8) << rng.IntN(28) // 8 B .. 1 GiB
		op := ops[rng.IntN(len(ops))]
		fid := taskgraph.Analytic
		if i%2 == 0 {
			fid = taskgraph.Detailed
		}
		cfg := collective.Config{Nodes: spec.Nodes, PerNode: spec.PerNode, Bytes: size}
		name := fmt.Sprintf("%s %d×%d %s %s %s, %v, %s", op, spec.Nodes, spec.PerNode, spec.GPU, spec.Inter, spec.Network, size, fid)
		protos := []string{ProtocolNone}
		if i%4 >= 2 {
			protos = collective.ProtocolNames()
		}
		mode := protos[0]
		if len(protos) > 1 {
			mode = ProtocolAuto
		}
		auto, _, err := MeasureProtocol(built.Topology, op, "auto", mode, cfg, fid)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		picked[auto.Algorithm+"/"+auto.Protocol]++
		best, bestAlgo := auto.Time, auto.Algorithm+"/"+auto.Protocol
		for _, p := range protos {
			for _, a := range collective.Algorithms(op)[1:] {
				m, _, err := MeasureProtocol(built.Topology, op, a, p, cfg, fid)
				if err != nil {
					continue // does not fit (halving_doubling on 6 ranks, …)
				}
				if m.Time < best {
					best, bestAlgo = m.Time, a+"/"+p
				}
			}
		}
		if float64(auto.Time) > 1.05*float64(best) {
			t.Errorf("%s: auto picked %s in %v, but %s takes %v (%s)", name, auto.Algorithm, auto.Time, bestAlgo, best, auto.Why)
		}
	}
	t.Logf("auto's picks: %v", picked)
}
