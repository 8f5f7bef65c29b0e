package nccltest

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Prediction is the closed-form time of one algorithm on a topology: what
// the analytic fidelity reports and what "auto" compares.
type Prediction struct {
	// Algorithm is the algorithm priced.
	Algorithm string
	// Protocol is the NCCL protocol it was priced with (simple, ll,
	// ll128), or ProtocolNone for the catalog's links as they are.
	Protocol string
	// Seconds is its predicted time.
	Seconds float64
}

// Choice is what "auto" picked and why: every algorithm that fits the
// run, fastest first, the first being the pick.
type Choice struct {
	// Predictions lists the candidates by predicted time, ties in the
	// order collective.Algorithms lists them.
	Predictions []Prediction
}

// Picked is the chosen algorithm.
func (c Choice) Picked() string { return c.Predictions[0].Algorithm }

// PickedProtocol is the chosen protocol (ProtocolNone when none was
// asked for).
func (c Choice) PickedProtocol() string { return c.Predictions[0].Protocol }

// label is "ring" or, with a protocol, "ring/ll128".
func (p Prediction) label() string {
	if p.Protocol == ProtocolNone {
		return p.Algorithm
	}
	return p.Algorithm + "/" + p.Protocol
}

// Reason says in one line what was picked over what, e.g. "ring 5.71 ms
// (fastest predicted); hierarchical 9.20 ms, tree 40.1 ms".
func (c Choice) Reason() string {
	var rest []string
	for _, p := range c.Predictions[1:] {
		rest = append(rest, fmt.Sprintf("%s %v", p.label(), units.Round(p.Seconds)))
	}
	out := fmt.Sprintf("%s %v (fastest predicted)", c.Predictions[0].label(), units.Round(c.Predictions[0].Seconds))
	if len(rest) > 0 {
		out += "; " + strings.Join(rest, ", ")
	}
	return out
}

// Choose is "auto" as NCCL's tuner does it (src/graph/tuning.cc computes a
// time for every algorithm and protocol and keeps the least): it prices
// every algorithm op offers that fits cfg with Predict on t and picks the
// fastest. cfg.Channels 0 takes DefaultChannels. It prices the links as
// they are (ProtocolNone); ChooseWith also picks a protocol.
func Choose(t *topo.Topology, op string, cfg collective.Config, gpus []int) (Choice, error) {
	return ChooseWith(t, op, "auto", Options{}, cfg, gpus)
}

// ChooseWith is Choose over the algorithms algo names ("auto": every one
// op offers, and AlgorithmNVLS where it fits) and the protocols o.Protocol
// names (ProtocolAuto: every one of collective.Protocols; ProtocolNone:
// the links as they are), each pair priced by predict on the topology as
// that protocol sees it.
func ChooseWith(t *topo.Topology, op, algo string, o Options, cfg collective.Config, gpus []int) (Choice, error) {
	proto := o.Protocol
	algos := collective.Algorithms(op)
	if algos == nil {
		_, err := collective.Resolve(op, "auto", cfg, collective.DefaultAlpha, collective.DefaultBandwidth)
		return Choice{}, err
	}
	algos = append(algos[1:], AlgorithmNVLS)
	if directFits(t, op, AlgorithmDirect, gpus) != nil {
		// The direct collectives are a mesh node's (directFits).
		algos = slices.DeleteFunc(algos, func(a string) bool { return a == AlgorithmDirect })
	}
	if algo != "auto" {
		algos = []string{algo}
	}
	protos := []string{proto}
	if proto == ProtocolAuto {
		protos = collective.ProtocolNames()
	}
	var c Choice
	var firstErr error
	for _, p := range protos {
		seen, err := protocolView(t, p)
		if err != nil {
			return Choice{}, err
		}
		for _, a := range algos {
			secs, err := predict(seen, op, a, p, o, cfg, gpus)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			c.Predictions = append(c.Predictions, Prediction{a, p, secs})
		}
	}
	if len(c.Predictions) == 0 {
		return Choice{}, firstErr
	}
	ps := c.Predictions
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Seconds < ps[j].Seconds })
	return c, nil
}

// predict is Predict, or predictNVLS when algo is AlgorithmNVLS and fits.
func predict(t *topo.Topology, op, algo, proto string, o Options, cfg collective.Config, gpus []int) (float64, error) {
	if algo == AlgorithmCollNet {
		if err := collNetFits(op, proto, o, cfg, gpus); err != nil {
			return 0, err
		}
		return predictCollNet(t, cfg, gpus)
	}
	if algo != AlgorithmNVLS {
		return Predict(t, op, algo, cfg, gpus)
	}
	if err := nvlsFits(t, op, proto, o, gpus); err != nil {
		return 0, err
	}
	return predictNVLS(t, op, cfg, gpus)
}

// Predict is the closed-form time of op/algo (not "auto") with cfg on t,
// rank r on gpus[r]: on a cluster of several nodes (of the topology, not
// only of cfg: on one switch every rank has a single port),
// collective.TwoLevelTime
// on the path between two GPUs of node 0 (NVLink) and from GPU 0 to the
// first GPU of node 1 (its NIC, one rail) where the algorithm has a
// two-level form (ring on channels, hierarchical, recursive doubling,
// halving-doubling and the all-to-alls); otherwise collective.Time on the bottleneck path
// between neighbouring ranks (topo.Paths.Bottleneck).
func Predict(t *topo.Topology, op, algo string, cfg collective.Config, gpus []int) (float64, error) {
	alpha, bw, err := bottleneck(t, gpus)
	if err != nil {
		return 0, err
	}
	if _, err := collective.Resolve(op, algo, cfg, alpha, bw); err != nil {
		return 0, err
	}
	if op != "sendrecv" && algo == AlgorithmDirect && t.DirectPorts && oneNode(t, gpus) {
		return collective.DirectMeshPhases(collective.Op(op), len(gpus), cfg.Bytes, collective.Link{Alpha: alpha, Bandwidth: bw}), nil
	}
	if cfg.Nodes > 1 && cfg.PerNode > 1 && cfg.PerNode < len(gpus) && !oneNode(t, gpus) {
		paths := topo.NewPaths(t)
		ia, ib, err := paths.Cost(gpus[0], gpus[1])
		if err != nil {
			return 0, err
		}
		ea, eb, err := paths.Cost(gpus[0], gpus[cfg.PerNode])
		if err != nil {
			return 0, err
		}
		if secs, ok := collective.TwoLevelTime(op, algo, cfg, collective.Link{Alpha: ia, Bandwidth: ib}, collective.Link{Alpha: ea, Bandwidth: eb}); ok {
			return secs, nil
		}
	}
	return collective.Time(op, algo, cfg, alpha, bw)
}

// AlgorithmDirect is collective.DirectAllReduce: auto offers it only on a
// mesh (topo.Topology.DirectPorts), where each cable is a port of its own.
const AlgorithmDirect = "direct"

// oneNode says every rank of gpus sits in the same server.
func oneNode(t *topo.Topology, gpus []int) bool {
	for _, g := range gpus {
		if t.GPUs[g].Node != t.GPUs[gpus[0]].Node {
			return false
		}
	}
	return true
}

// directFits reports why the direct collective cannot run op on gpus of
// t, or nil: it is a mesh's algorithm (every rank of one node, each cable
// its own port); on a switch NCCL has no such algorithm to compare with.
func directFits(t *topo.Topology, op, algo string, gpus []int) error {
	if algo != AlgorithmDirect || op == "sendrecv" {
		return nil
	}
	if !t.DirectPorts || !oneNode(t, gpus) {
		return fmt.Errorf("run: direct runs inside one mesh node (e.g. --gpu mi300x), where each GPU has a cable to every peer")
	}
	return nil
}
