package nccltest

import (
	"fmt"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/topo"
)

// ProtocolNone is the protocol of a run that prices the catalog's links
// as they are (LL128's per-hop latency with the measured large-message
// bandwidth), as every run did before protocols; scenarios use it.
const ProtocolNone = ""

// ProtocolAuto asks Choose to pick the protocol too.
const ProtocolAuto = "auto"

// withProtocol is t as protocol p sees it (collective.Protocol.Apply):
// every link's bandwidth × p.Efficiency, and every link out of a GPU — the
// one hop of each message that starts it, so that a route pays the delta
// once — α + p.HopDelta of its class. The copy shares nothing mutable with
// t.
func withProtocol(t *topo.Topology, p collective.Protocol) *topo.Topology {
	out := *t
	out.Links = append([]topo.Link(nil), t.Links...)
	for i := range out.Links {
		l := &out.Links[i]
		class := collective.LinkClass(l.Kind)
		if !t.IsGPU(l.From) {
			class = -1
		}
		applied := p.Apply(collective.Link{Alpha: l.Latency, Bandwidth: l.Bandwidth}, max(class, 0))
		l.Bandwidth = applied.Bandwidth
		if class >= 0 {
			l.Latency = applied.Alpha
		}
	}
	return &out
}

// ProtocolView is t as protocol name sees it: t itself for ProtocolNone,
// else every link's bandwidth × the protocol's payload share and every
// link out of a GPU α + the protocol's delta for its class
// (collective.Protocol); an unknown name is an error listing the allowed
// ones. A training run prices all its NCCL traffic on it.
func ProtocolView(t *topo.Topology, name string) (*topo.Topology, error) {
	return protocolView(t, name)
}

// protocolView is ProtocolView.
func protocolView(t *topo.Topology, name string) (*topo.Topology, error) {
	if name == ProtocolNone {
		return t, nil
	}
	p, err := collective.ProtocolByName(name)
	if err != nil {
		return nil, fmt.Errorf("run: protocol %q; want %s or %s", name, ProtocolAuto, strings.Join(collective.ProtocolNames(), ", "))
	}
	return withProtocol(t, p), nil
}
