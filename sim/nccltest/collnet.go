package nccltest

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/topo"
)

// SHARPCapable says whether the inter-node link preset of sim/hw is a
// network whose switches reduce (hw.Link.SHARP).
func SHARPCapable(interLink string) bool {
	l, err := hw.LookupLink(interLink)
	return err == nil && l.SHARP
}

// AlgorithmCollNet is NCCL's CollNet all-reduce on a network whose
// switches reduce (IB SHARP; collective.CollNetTime). Like NCCL, which
// uses it only with the SHARP plugin and NCCL_COLLNET_ENABLE=1, auto
// never picks it: it runs when asked, where Options.SHARP says the
// network can, at analytic fidelity (the switch is a party to every
// transfer: no point-to-point schedule).
const AlgorithmCollNet = "collnet"

// collNetFits reports why CollNet cannot run op with protocol proto on
// cfg, or nil: all_reduce, a SHARP network, at least two nodes of equal
// size, and the Simple protocol.
func collNetFits(op, proto string, o Options, cfg collective.Config, gpus []int) error {
	switch {
	case op != "all_reduce":
		return fmt.Errorf("run: collnet does all_reduce only, not %s", op)
	case !o.SHARP:
		return fmt.Errorf("run: collnet needs a network whose switches reduce (SHARP: ib-hdr, ib-ndr, ib-xdr)")
	case cfg.Nodes < 2 || cfg.PerNode < 1 || cfg.Nodes*cfg.PerNode != len(gpus):
		return fmt.Errorf("run: collnet reduces in the network between nodes; these %d ranks are not 2 or more whole nodes", len(gpus))
	case proto != ProtocolNone && proto != "simple":
		return fmt.Errorf("run: collnet runs with the simple protocol only, not %s", proto)
	}
	return nil
}

// predictCollNet is collective.CollNetTime on the path between two GPUs
// of node 0 and from GPU 0 to the first GPU of node 1 (its NIC's rail).
func predictCollNet(t *topo.Topology, cfg collective.Config, gpus []int) (float64, error) {
	paths := topo.NewPaths(t)
	ea, eb, err := paths.Cost(gpus[0], gpus[cfg.PerNode])
	if err != nil {
		return 0, err
	}
	intra := collective.Link{Alpha: ea, Bandwidth: eb}
	if cfg.PerNode > 1 {
		a, b, err := paths.Cost(gpus[0], gpus[1])
		if err != nil {
			return 0, err
		}
		intra = collective.Link{Alpha: a, Bandwidth: b}
	}
	return collective.CollNetTime(cfg.Nodes, cfg.PerNode, cfg.Bytes, intra, collective.Link{Alpha: ea, Bandwidth: eb}), nil
}
