package cluster

import (
	"errors"
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Limits keep a cluster within what the simulator can hold.
const (
	MaxGPUs  = 65536
	MaxNodes = 8192
	// MaxPerNode is the largest server: a GB200 NVL72 rack, whose 72
	// GPUs share one NVLink domain.
	MaxPerNode = 72
)

// Spec describes a cluster. Zero fields take the defaults of the GPU preset.
type Spec struct {
	// GPU is an accelerator preset (see hw.GPUs), e.g. "h100-sxm"; default "h100-sxm".
	GPU string
	// Nodes is the number of servers, 1..MaxNodes; default 1.
	Nodes int
	// PerNode is the number of GPUs per server; default the GPU preset's server size.
	PerNode int
	// Intra is the link preset inside a server; default the GPU preset's link.
	Intra string
	// Inter is the NIC preset between servers (one NIC per GPU); default "ib-ndr".
	Inter string
	// Network is how the NICs are wired; default topo.RailOptimized.
	Network topo.Network
	// Oversubscription is the fat tree's leaf down:up ratio, ≥ 1; default 1.
	Oversubscription float64
	// Bandwidth and Latency, when Bandwidth > 0, replace every link by a
	// uniform one: the GPUs of each node hang off one ideal switch with
	// ports of this bandwidth and latency, and so do the nodes' NICs.
	Bandwidth units.Bandwidth
	// Latency is the uniform links' α (with Bandwidth).
	Latency units.Time
	// Calibration, when not nil, gives the presets' fitted bandwidth and
	// α where it has them (hw.Calibration.Port).
	Calibration *hw.Calibration
}

// Built is a cluster ready to simulate.
type Built struct {
	// Topology is the wiring.
	Topology *topo.Topology
	// Spec is the spec with every default filled in.
	Spec Spec
	// Intra and Inter are the ports used (bandwidth = the catalog's
	// effective rate, latency = its α).
	Intra, Inter topo.Port
	// Description says in one line what was built.
	Description string
	// mesh says the intra-node link joins GPUs pairwise (hw.Link.MeshPeers):
	// Intra is then one cable to one peer.
	mesh bool
}

// Build fills in the spec's defaults, checks it and wires the cluster.
func Build(s Spec) (*Built, error) {
	if s.GPU == "" {
		s.GPU = "h100-sxm"
	}
	gpu, err := hw.LookupGPU(s.GPU)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	if s.Nodes == 0 {
		s.Nodes = 1
	}
	if s.PerNode == 0 {
		s.PerNode = gpu.GPUsPerNode
	}
	if s.Intra == "" {
		s.Intra = gpu.Link
	}
	if s.Inter == "" {
		s.Inter = "ib-ndr"
	}
	if s.Network == "" {
		s.Network = topo.RailOptimized
	}
	if s.Oversubscription == 0 {
		s.Oversubscription = 1
	}
	var errs []error
	if s.Nodes < 1 || s.Nodes > MaxNodes {
		errs = append(errs, fmt.Errorf("nodes: is %d; allowed 1..%d", s.Nodes, MaxNodes))
	}
	if s.PerNode < 1 || s.PerNode > MaxPerNode {
		errs = append(errs, fmt.Errorf("gpus-per-node: is %d; allowed 1..%d", s.PerNode, MaxPerNode))
	}
	if s.Nodes*s.PerNode > MaxGPUs {
		errs = append(errs, fmt.Errorf("nodes × gpus-per-node = %d; at most %d GPUs allowed", s.Nodes*s.PerNode, MaxGPUs))
	}
	if !(s.Oversubscription >= 1 && s.Oversubscription <= 64) {
		errs = append(errs, fmt.Errorf("oversubscription: is %v; allowed 1..64", s.Oversubscription))
	}
	if s.Network != topo.RailOptimized && s.Network != topo.FatTree {
		errs = append(errs, fmt.Errorf("network: %q is not known; allowed: %s, %s", s.Network, topo.RailOptimized, topo.FatTree))
	}
	if s.Bandwidth < 0 || s.Latency < 0 {
		errs = append(errs, fmt.Errorf("link bandwidth %v and latency %v must not be negative", s.Bandwidth, s.Latency))
	}
	b := &Built{Spec: s}
	if s.Bandwidth > 0 {
		b.Intra = topo.Port{Bandwidth: s.Bandwidth, Latency: s.Latency, Kind: "uniform"}
		b.Inter = b.Intra
	} else {
		intra, err := hw.LookupLink(s.Intra)
		if err != nil {
			errs = append(errs, fmt.Errorf("link: %w", err))
		}
		inter, err := hw.LookupLink(s.Inter)
		if err != nil {
			errs = append(errs, fmt.Errorf("inter: %w", err))
		}
		bw, lat := s.Calibration.Port(intra)
		b.Intra = topo.Port{Bandwidth: bw, Latency: lat, Kind: string(intra.Kind)}
		if intra.MeshPeers > 0 {
			b.mesh = true
			b.Intra.Bandwidth /= units.Bandwidth(intra.MeshPeers) // one cable per peer
			if s.PerNode > intra.MeshPeers+1 {
				errs = append(errs, fmt.Errorf("gpus-per-node: is %d; the %s mesh joins at most %d GPUs (one cable to each of %d peers)", s.PerNode, s.Intra, intra.MeshPeers+1, intra.MeshPeers))
			}
		}
		bw, lat = s.Calibration.Port(inter)
		b.Inter = topo.Port{Bandwidth: bw, Latency: lat, Kind: string(inter.Kind)}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if b.Topology, err = b.wire(); err != nil {
		return nil, err
	}
	b.Description = b.describe()
	return b, nil
}

// wire builds the topology of a checked spec: one node around its switch
// or as a mesh, or several on the network.
func (b *Built) wire() (*topo.Topology, error) {
	s := b.Spec
	switch {
	case s.Nodes == 1 && b.mesh:
		return topo.Mesh(s.PerNode, b.Intra)
	case s.Nodes == 1:
		return topo.Switched(s.PerNode, b.Intra), nil
	}
	return topo.Cluster(topo.ClusterConfig{Nodes: s.Nodes, PerNode: s.PerNode, Intra: b.Intra, Inter: b.Inter,
		Network: s.Network, Oversubscription: s.Oversubscription, IntraMesh: b.mesh})
}

func (b *Built) describe() string {
	s := b.Spec
	gbps := func(bw units.Bandwidth) string { return fmt.Sprintf("%.4g GB/s", float64(bw)/1e9) }
	if s.Bandwidth > 0 {
		return fmt.Sprintf("%s × %d GPUs, uniform links %s, α %v", plural(s.Nodes, "node"), s.PerNode, gbps(s.Bandwidth), s.Latency)
	}
	d := fmt.Sprintf("%s × %d %s, %s %s α %v", plural(s.Nodes, "node"), s.PerNode, s.GPU, s.Intra, gbps(b.Intra.Bandwidth), b.Intra.Latency)
	if b.mesh {
		d = fmt.Sprintf("%s × %d %s, %s mesh %s per peer α %v", plural(s.Nodes, "node"), s.PerNode, s.GPU, s.Intra, gbps(b.Intra.Bandwidth), b.Intra.Latency)
	}
	if s.Nodes > 1 {
		d += fmt.Sprintf(", %s %s α %v (%s", s.Inter, gbps(b.Inter.Bandwidth), b.Inter.Latency, s.Network)
		if s.Network == topo.FatTree {
			d += fmt.Sprintf(" 1:%g", s.Oversubscription)
		}
		d += ")"
	}
	return d
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
