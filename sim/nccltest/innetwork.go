package nccltest

import (
	"cmp"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// A scenario of the lone collective may name the two all-reduces in
// which a switch adds, AlgorithmNVLS (inside one node whose NVSwitch
// reduces) and AlgorithmCollNet (across nodes whose network switches
// reduce). Neither has a point-to-point schedule, so a scenario prices
// them in closed form (predict) and records one analytic collective; the
// picture draws the switch adding (sim/scene).

// inNetwork reports whether algo is one of the in-network reductions.
func inNetwork(algo string) bool { return algo == AlgorithmNVLS || algo == AlgorithmCollNet }

// inNetworkAlgorithms are the in-network all-reduces.
var inNetworkAlgorithms = []string{AlgorithmNVLS, AlgorithmCollNet}

// moreAlgorithms is Keys.Algorithms: the in-network all-reduces.
func moreAlgorithms(op string) []string {
	if op == "all_reduce" {
		return inNetworkAlgorithms
	}
	return nil
}

// checkInNetwork reports, as collective.algorithm, why s's in-network
// algorithm cannot run on its cluster: NVLS needs one node behind a switch
// that reduces (NVLSCapable), CollNet two or more nodes on a network whose
// switches do (SHARPCapable). The links are the cluster's presets with
// cluster.Build's defaults (the GPU's own link inside a node, ib-ndr
// between nodes).
func checkInNetwork(s *scenario.Scenario, bad scenario.Reporter) {
	algo := s.Collective.Algorithm
	gpu, err := hw.LookupGPU(s.Cluster.GPU)
	if !inNetwork(algo) || s.Cluster.GPU != "" && err != nil {
		return // not in-network, or a GPU the cluster's checks report
	}
	intra, inter, nodes := cmp.Or(s.Cluster.Intra, gpu.Link), cmp.Or(s.Cluster.Inter, "ib-ndr"), max(s.Cluster.Nodes, 1)
	why := ""
	switch {
	case s.Cluster.GPU == "":
		why = "needs a cluster of catalog GPUs (cluster.gpu) whose switches add"
	case algo == AlgorithmNVLS && nodes > 1:
		why = "adds in one node's NVSwitch: set cluster.nodes to 1"
	case algo == AlgorithmNVLS && !NVLSCapable(intra):
		why = "needs an NVSwitch that adds (cluster.intra nvlink4, nvlink4-h800 or nvlink5), not " + intra
	case algo == AlgorithmCollNet && nodes < 2:
		why = "adds in the network between nodes: set cluster.nodes to 2 or more"
	case algo == AlgorithmCollNet && !SHARPCapable(inter):
		why = "needs a network whose switches add (cluster.inter ib-hdr, ib-ndr or ib-xdr), not " + inter
	case s.Collective.Protocol != ProtocolNone && s.Collective.Protocol != "simple" && s.Collective.Protocol != ProtocolAuto:
		why = "runs with the simple protocol only (collective.protocol simple, auto or empty), not " + s.Collective.Protocol
	}
	if why != "" {
		bad("collective.algorithm", "%s %s", algo, why)
	}
}

// simulateInNetwork records s's in-network all-reduce on t as one
// analytic collective of its closed form's length (predict).
func simulateInNetwork(s scenario.Scenario, t *topo.Topology) (*timeline.Timeline, error) {
	secs, proto, err := inNetworkTime(s, t)
	if err != nil {
		return nil, err
	}
	d := max(1, units.Round(secs))
	tl, err := analyticTimeline(t, s.Collective.Op, s.Collective.Algorithm, s.Collective.Size, taskgraph.Identity(s.NumGPUs()), d, s.Title())
	if err == nil {
		tl.Collectives[0].Protocol = proto
	}
	return tl, err
}

// inNetworkTime is the closed-form time of s's in-network all-reduce on t
// (checkInNetwork held the cluster to the switches it needs) and the
// protocol it runs with: collective.protocol, "auto" being Simple, its
// only one.
func inNetworkTime(s scenario.Scenario, t *topo.Topology) (float64, string, error) {
	proto := s.Collective.Protocol
	if proto == ProtocolAuto {
		proto = "simple"
	}
	seen, err := protocolView(t, proto)
	if err != nil {
		return 0, "", err
	}
	o := Options{NVLS: true, SHARP: true}
	secs, err := predict(seen, s.Collective.Op, s.Collective.Algorithm, proto, o, Config(s), taskgraph.Identity(s.NumGPUs()))
	return secs, proto, err
}
