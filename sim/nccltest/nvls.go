package nccltest

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/topo"
)

// AlgorithmNVLS is NCCL's NVLink SHARP all-reduce, all-gather and
// reduce-scatter (collective.NVLSTime, NVLSGatherScatterTime): the
// NVSwitch adds and multicasts, so it has no point-to-point schedule and
// always runs at analytic fidelity. It is offered here rather than in
// collective.Algorithms because it depends on the switch, not on the
// ranks: only when Options.NVLS says the node's switch can reduce.
const AlgorithmNVLS = "nvls"

// Options are the settings of a measurement beyond the collective itself.
type Options struct {
	// Protocol is NCCL's protocol: one of collective.ProtocolNames,
	// ProtocolAuto or ProtocolNone.
	Protocol string
	// NVLS says every GPU of a node hangs off a switch that reduces and
	// multicasts (NVLink SHARP; NVLSCapable), which puts AlgorithmNVLS on
	// offer for all_reduce within one node.
	NVLS bool
	// SHARP says the inter-node network's switches reduce (hw.Link.SHARP),
	// which lets AlgorithmCollNet run when asked.
	SHARP bool
}

// NVLSCapable says whether the intra-node link preset of sim/hw is one
// whose switch reduces in the switch: NVLink 4 (H100, H200, H800 through
// third-generation NVSwitch) and NVLink 5 (B200). NVIDIA's Hopper
// architecture whitepaper (2022) introduces NVLink SHARP with the
// third-generation NVSwitch; NCCL uses it from 2.17 (NVIDIA/nccl-tests
// issue #153: "the introduce of NVLS in NCCL 2.17.1").
func NVLSCapable(intraLink string) bool {
	switch intraLink {
	case "nvlink4", "nvlink4-h800", "nvlink5":
		return true
	}
	return false
}

// nvlsFits reports why AlgorithmNVLS cannot run op on gpus of t with
// protocol proto, or nil when it can: all_reduce, all_gather or
// reduce_scatter, an NVLS switch, every rank on one node, and the Simple
// protocol (NCCL's only one for NVLS).
func nvlsFits(t *topo.Topology, op, proto string, o Options, gpus []int) error {
	switch {
	case op != "all_reduce" && op != "all_gather" && op != "reduce_scatter":
		return fmt.Errorf("run: nvls does all_reduce, all_gather and reduce_scatter, not %s", op)
	case !o.NVLS:
		return fmt.Errorf("run: nvls needs a switch that reduces (NVLink 4 or 5: nvlink4, nvlink4-h800, nvlink5)")
	case proto != ProtocolNone && proto != "simple":
		return fmt.Errorf("run: nvls runs with the simple protocol only, not %s", proto)
	}
	for _, g := range gpus {
		if t.GPUs[g].Node != t.GPUs[gpus[0]].Node {
			return fmt.Errorf("run: nvls reduces inside one node's switch; these ranks span nodes")
		}
	}
	return nil
}

// predictNVLS is collective.NVLSTime (all_reduce) or
// NVLSGatherScatterTime on the path between the first two ranks (every
// GPU's port into the switch).
func predictNVLS(t *topo.Topology, op string, cfg collective.Config, gpus []int) (float64, error) {
	a, b, err := topo.NewPaths(t).Cost(gpus[0], gpus[1])
	if err != nil {
		return 0, err
	}
	l := collective.Link{Alpha: a, Bandwidth: b}
	if op != "all_reduce" {
		return collective.NVLSGatherScatterTime(len(gpus), cfg.Bytes, l), nil
	}
	return collective.NVLSTime(len(gpus), cfg.Bytes, l), nil
}
