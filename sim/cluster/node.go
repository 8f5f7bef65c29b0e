package cluster

import (
	"paraplay/sim/hw"
	"paraplay/sim/topo"
)

// LinkPort is link preset l as a GPU's port: the preset's effective
// bandwidth (its measured share of the wire) and latency.
func LinkPort(l hw.Link) topo.Port {
	return topo.Port{Bandwidth: l.Effective(), Latency: l.Latency, Kind: string(l.Kind)}
}

// Server is one server of catalog parts, as the strategies that wire their
// own topology (serving, offloaded pipelines) need it.
type Server struct {
	GPU  hw.GPU    // the GPU preset
	NV   topo.Port // a GPU's intra-node port (the GPU's own link unless overridden)
	PCIe topo.Port // a GPU's host link
}

// LookupServer resolves GPU preset gpu with intra-node link intra (empty:
// the GPU's own) and host link pcie.
func LookupServer(gpu, intra, pcie string) (Server, error) {
	g, err := hw.LookupGPU(gpu)
	if err != nil {
		return Server{}, err
	}
	if intra == "" {
		intra = g.Link
	}
	s := Server{GPU: g}
	for _, p := range []struct {
		port *topo.Port
		name string
	}{{&s.NV, intra}, {&s.PCIe, pcie}} {
		l, err := hw.LookupLink(p.name)
		if err != nil {
			return Server{}, err
		}
		*p.port = LinkPort(l)
	}
	return s, nil
}
