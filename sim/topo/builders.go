package topo

import (
	"fmt"

	"paraplay/sim/units"
)

// Port is the bandwidth and latency of one kind of connection.
type Port struct {
	// Bandwidth is the rate of one direction.
	Bandwidth units.Bandwidth
	// Latency is α, paid once per message that uses this kind of connection.
	Latency units.Time
	// Kind names the technology, e.g. "nvlink", "ib".
	Kind string
}

// Ring builds n GPUs in one node joined in a ring by full-duplex direct
// links: for every i, a link i→i+1 and a link i+1→i (indices mod n). With
// n = 2 the two neighbours are the same GPU, so there is one link each way.
func Ring(n int, bw units.Bandwidth, latency units.Time) *Topology {
	t := &Topology{Nodes: 1}
	for i := 0; i < n; i++ {
		t.addGPU(0, i)
	}
	for i := 0; i < n; i++ {
		if n == 2 && i == 1 {
			break // 0↔1 already joined
		}
		t.duplex(i, (i+1)%n, bw, latency, latency, "direct")
	}
	return t
}

// Switched builds n GPUs in one node around a single non-blocking switch
// (an NVSwitch, or an ideal crossbar): every GPU has a full-duplex port of
// the given bandwidth, and any two GPUs talk through the switch.
func Switched(n int, p Port) *Topology {
	t := &Topology{Nodes: 1}
	for i := 0; i < n; i++ {
		t.addGPU(0, i)
	}
	sw := t.addSwitch("switch", kindOr(p.Kind, "nvswitch"), 0)
	for i := 0; i < n; i++ {
		t.duplex(i, sw, p.Bandwidth, p.Latency, 0, p.Kind)
	}
	return t
}

// MaxMeshGPUs bounds Mesh: every pair of GPUs has its own cable, so the
// cables grow as n², and a mesh's ports as n² too (Topology.DirectPorts).
const MaxMeshGPUs = 16

// Mesh builds n GPUs in one node joined pairwise, with no switch: every
// two GPUs share a full-duplex direct link of p, as the Infinity Fabric
// (xGMI) links join the eight GPUs of an AMD MI300X platform. A ring on a
// mesh uses one of a GPU's n−1 links; an algorithm that sends to every
// peer at once uses them all, which is why DirectPorts is set.
func Mesh(n int, p Port) (*Topology, error) {
	if n < 1 || n > MaxMeshGPUs {
		return nil, fmt.Errorf("mesh: %d GPUs; allowed 1..%d", n, MaxMeshGPUs)
	}
	if !(p.Bandwidth > 0) || p.Latency < 0 {
		return nil, fmt.Errorf("mesh: bandwidth %v must be > 0 and latency %v ≥ 0", p.Bandwidth, p.Latency)
	}
	t := &Topology{Nodes: 1, DirectPorts: true}
	for i := 0; i < n; i++ {
		t.addGPU(0, i)
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			t.duplex(a, b, p.Bandwidth, p.Latency, p.Latency, kindOr(p.Kind, "xgmi"))
		}
	}
	return t, nil
}

// Network says how the nodes of a cluster are connected.
type Network string

// The inter-node networks Cluster can build.
const (
	// RailOptimized gives GPU i of every node its own leaf switch (rail i),
	// and joins the rails through one spine; messages between GPUs with the
	// same local index cross one leaf.
	RailOptimized Network = "rail-optimized"
	// FatTree puts NodesPerLeaf nodes' NICs on each leaf switch and joins
	// the leaves through one spine whose links are thinner by the
	// oversubscription ratio.
	FatTree Network = "fat-tree"
)

// ClusterConfig describes a multi-node cluster.
type ClusterConfig struct {
	// Nodes is the number of servers, ≥ 1.
	Nodes int
	// PerNode is the number of GPUs in each server, ≥ 1.
	PerNode int
	// Intra is each GPU's port on its server's NVSwitch.
	Intra Port
	// Inter is each GPU's NIC port on the network (one NIC per GPU).
	Inter Port
	// Network is RailOptimized or FatTree.
	Network Network
	// NodesPerLeaf is how many nodes share a leaf in a FatTree (default 4).
	NodesPerLeaf int
	// Oversubscription is a FatTree's ratio of leaf downlink to uplink
	// capacity, ≥ 1 (1 = full bisection bandwidth).
	Oversubscription float64
	// IntraMesh joins each server's GPUs pairwise by direct links of
	// Intra (Mesh) instead of through an NVSwitch; PerNode ≤ MaxMeshGPUs.
	IntraMesh bool
}

// Validate checks the cluster's sizes and ports.
func (c ClusterConfig) Validate() error {
	switch {
	case c.Nodes < 1 || c.PerNode < 1:
		return fmt.Errorf("cluster: %d nodes of %d GPUs; want at least 1 of each", c.Nodes, c.PerNode)
	case !(c.Intra.Bandwidth > 0) || !(c.Inter.Bandwidth > 0):
		return fmt.Errorf("cluster: intra-node bandwidth %v and inter-node bandwidth %v must be > 0", c.Intra.Bandwidth, c.Inter.Bandwidth)
	case c.Network != RailOptimized && c.Network != FatTree:
		return fmt.Errorf("cluster: network %q; want %s or %s", c.Network, RailOptimized, FatTree)
	case c.Network == FatTree && !(c.Oversubscription >= 1):
		return fmt.Errorf("cluster: oversubscription %v; want ≥ 1", c.Oversubscription)
	case c.IntraMesh && c.PerNode > MaxMeshGPUs:
		return fmt.Errorf("cluster: a mesh node of %d GPUs; allowed 1..%d", c.PerNode, MaxMeshGPUs)
	}
	return nil
}

// Cluster builds nodes of PerNode GPUs around an NVSwitch each, with one NIC
// per GPU on the inter-node network.
func Cluster(c ClusterConfig) (*Topology, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	t := &Topology{Nodes: c.Nodes}
	for n := 0; n < c.Nodes; n++ {
		for l := 0; l < c.PerNode; l++ {
			t.addGPU(n, l)
		}
	}
	t.DirectPorts = c.IntraMesh
	for n := 0; n < c.Nodes && !c.IntraMesh; n++ {
		sw := t.addSwitch(fmt.Sprintf("NVSwitch %d", n), "nvswitch", n)
		for l := 0; l < c.PerNode; l++ {
			t.duplex(n*c.PerNode+l, sw, c.Intra.Bandwidth, c.Intra.Latency, 0, kindOr(c.Intra.Kind, "nvlink"))
		}
	}
	for n := 0; n < c.Nodes && c.IntraMesh; n++ {
		for a := 0; a < c.PerNode; a++ {
			for b := a + 1; b < c.PerNode; b++ {
				t.duplex(n*c.PerNode+a, n*c.PerNode+b, c.Intra.Bandwidth, c.Intra.Latency, c.Intra.Latency, kindOr(c.Intra.Kind, "xgmi"))
			}
		}
	}
	if c.Nodes == 1 {
		return t, nil
	}
	inter := kindOr(c.Inter.Kind, "ib")
	switch c.Network {
	case RailOptimized:
		spine := -1
		if c.PerNode > 1 {
			spine = t.addSwitch("spine", "spine", -1)
		}
		for l := 0; l < c.PerNode; l++ {
			leaf := t.addSwitch(fmt.Sprintf("rail %d", l), "leaf", -1)
			for n := 0; n < c.Nodes; n++ {
				t.duplex(n*c.PerNode+l, leaf, c.Inter.Bandwidth, c.Inter.Latency, 0, inter)
			}
			if spine >= 0 {
				// Full bisection: the rail's uplink carries all its NICs.
				t.duplex(leaf, spine, c.Inter.Bandwidth*units.Bandwidth(c.Nodes), 0, 0, inter)
			}
		}
	case FatTree:
		per := c.NodesPerLeaf
		if per < 1 {
			per = 4
		}
		leaves := (c.Nodes + per - 1) / per
		spine := -1
		if leaves > 1 {
			spine = t.addSwitch("spine", "spine", -1)
		}
		for lf := 0; lf < leaves; lf++ {
			leaf := t.addSwitch(fmt.Sprintf("leaf %d", lf), "leaf", -1)
			nodes := min(per, c.Nodes-lf*per)
			for n := lf * per; n < lf*per+nodes; n++ {
				for l := 0; l < c.PerNode; l++ {
					t.duplex(n*c.PerNode+l, leaf, c.Inter.Bandwidth, c.Inter.Latency, 0, inter)
				}
			}
			if spine >= 0 {
				down := c.Inter.Bandwidth * units.Bandwidth(nodes*c.PerNode)
				t.duplex(leaf, spine, down/units.Bandwidth(c.Oversubscription), 0, 0, inter)
			}
		}
	}
	return t, nil
}

// Torus2D builds an x × y torus of GPUs, each joined to its four
// neighbours by full-duplex direct links (fewer when a side has length ≤ 2).
func Torus2D(x, y int, p Port) *Topology {
	t := &Topology{Nodes: 1}
	for i := 0; i < x*y; i++ {
		t.addGPU(0, i)
	}
	joined := map[[2]int]bool{}
	join := func(a, b int) {
		if a == b || joined[[2]int{min(a, b), max(a, b)}] {
			return
		}
		joined[[2]int{min(a, b), max(a, b)}] = true
		t.duplex(a, b, p.Bandwidth, p.Latency, p.Latency, kindOr(p.Kind, "direct"))
	}
	for r := 0; r < y; r++ {
		for c := 0; c < x; c++ {
			join(r*x+c, r*x+(c+1)%x)
			join(r*x+c, ((r+1)%y)*x+c)
		}
	}
	return t
}

// PCIeNodes builds nodes whose GPUs share a PCIe switch (no NVLink), with
// the nodes joined through one network switch by a NIC per node.
func PCIeNodes(nodes, perNode int, pcie, nic Port) *Topology {
	t := &Topology{Nodes: nodes}
	for n := 0; n < nodes; n++ {
		for l := 0; l < perNode; l++ {
			t.addGPU(n, l)
		}
	}
	net := -1
	if nodes > 1 {
		net = t.addSwitch("network", "leaf", -1)
	}
	for n := 0; n < nodes; n++ {
		sw := t.addSwitch(fmt.Sprintf("PCIe switch %d", n), "pcie", n)
		for l := 0; l < perNode; l++ {
			t.duplex(n*perNode+l, sw, pcie.Bandwidth, pcie.Latency, 0, kindOr(pcie.Kind, "pcie"))
		}
		if net >= 0 {
			t.duplex(sw, net, nic.Bandwidth, nic.Latency, 0, kindOr(nic.Kind, "ethernet"))
		}
	}
	return t
}

// WAN builds sites of perSite GPUs around a local switch each, every pair
// of sites joined by a direct wide-area link.
func WAN(sites, perSite int, local, wan Port) *Topology {
	t := &Topology{Nodes: sites}
	for s := 0; s < sites; s++ {
		for l := 0; l < perSite; l++ {
			t.addGPU(s, l)
		}
	}
	sw := make([]int, sites)
	for s := 0; s < sites; s++ {
		sw[s] = t.addSwitch(fmt.Sprintf("site %d", s), "wan", s)
		for l := 0; l < perSite; l++ {
			t.duplex(s*perSite+l, sw[s], local.Bandwidth, local.Latency, 0, kindOr(local.Kind, "ethernet"))
		}
	}
	for a := 0; a < sites; a++ {
		for b := a + 1; b < sites; b++ {
			t.duplex(sw[a], sw[b], wan.Bandwidth, wan.Latency, wan.Latency, kindOr(wan.Kind, "wan"))
		}
	}
	return t
}

func kindOr(kind, def string) string {
	if kind == "" {
		return def
	}
	return kind
}
