package topo

import (
	"errors"
	"fmt"

	"paraplay/sim/units"
)

// Topology is a set of GPUs and switches joined by directed links.
type Topology struct {
	// GPUs are indexed by their ID, which is also their vertex id.
	GPUs []GPU
	// Switches are the other vertices; switch j has vertex id len(GPUs)+j.
	Switches []Switch
	// Links are indexed by their ID. A full-duplex cable is two links.
	Links []Link
	// Nodes is the number of servers.
	Nodes int
	// DirectPorts says each GPU drives each of its direct links to a
	// peer on its own, as the xGMI links of a fully connected mesh are
	// driven (Mesh), instead of one message at a time into its server.
	DirectPorts bool
	// Forward says GPUs relay messages for others, as TPU chips route ICI
	// traffic through the chips between source and destination; routes
	// then cross GPUs (but never a KindHost switch from chip to chip).
	Forward bool
	// LinkPorts says every link out of a GPU is a send port of its own,
	// and every link into it a receive port: a TPU chip drives its four or
	// six ICI links at once.
	LinkPorts bool
	// Torus is the shape of a torus topology (BuildTorus), nil otherwise.
	Torus *Torus
}

// GPU is one device.
type GPU struct {
	// ID is the GPU's index in Topology.GPUs and its vertex id.
	ID int
	// Node is the index of the server that holds the GPU.
	Node int
	// Local is the GPU's index within its server.
	Local int
	// Name labels the GPU for people.
	Name string
	// Role is "" for a GPU, RoleServer for a parameter-server host (an
	// endpoint that sends and receives but is no accelerator) or RoleCPU
	// for a serving run's CPU lane.
	Role string
}

// RoleServer marks an endpoint that is a parameter-server host (a CPU
// server), not a GPU.
const RoleServer = "ps"

// RoleCPU marks a host's CPU lane in a serving run: it samples tokens on
// its own stream, beside the GPUs, and joins the node over PCIe.
const RoleCPU = "cpu"

// Switch is a vertex that forwards messages but computes nothing.
type Switch struct {
	// ID is the switch's vertex id.
	ID int
	// Name labels the switch for people, e.g. "NVSwitch 0", "leaf 3".
	Name string
	// Kind is "nvswitch", "pcie", "leaf", "spine" or "wan".
	Kind string
	// Node is the server that holds the switch, or -1 for the network.
	Node int
}

// Link is one direction of a connection between two vertices.
type Link struct {
	// ID is the link's index in Topology.Links.
	ID int
	// From and To are vertex ids; From != To.
	From, To int
	// Bandwidth is the rate of this direction, > 0.
	Bandwidth units.Bandwidth
	// Latency is the part of α this link adds to every message, ≥ 0.
	Latency units.Time
	// Kind names the technology, e.g. "nvlink", "pcie", "ib", "wan".
	Kind string
}

// Vertices is the number of vertices: GPUs plus switches.
func (t *Topology) Vertices() int { return len(t.GPUs) + len(t.Switches) }

// IsGPU reports whether vertex v is a GPU.
func (t *Topology) IsGPU(v int) bool { return v >= 0 && v < len(t.GPUs) }

// VertexName names vertex v for messages.
func (t *Topology) VertexName(v int) string {
	switch {
	case t.IsGPU(v):
		return t.GPUs[v].Name
	case v >= len(t.GPUs) && v < t.Vertices():
		return t.Switches[v-len(t.GPUs)].Name
	}
	return fmt.Sprintf("vertex %d", v)
}

func (t *Topology) addGPU(node, local int) int {
	id := len(t.GPUs)
	t.GPUs = append(t.GPUs, GPU{ID: id, Node: node, Local: local, Name: fmt.Sprintf("GPU %d", id)})
	return id
}

// addSwitch appends a switch. Switch vertex ids depend on the GPU count, so
// builders add every GPU first.
func (t *Topology) addSwitch(name, kind string, node int) int {
	id := len(t.GPUs) + len(t.Switches)
	t.Switches = append(t.Switches, Switch{ID: id, Name: name, Kind: kind, Node: node})
	return id
}

func (t *Topology) addLink(from, to int, bw units.Bandwidth, lat units.Time, kind string) int {
	id := len(t.Links)
	t.Links = append(t.Links, Link{ID: id, From: from, To: to, Bandwidth: bw, Latency: lat, Kind: kind})
	return id
}

// duplex joins a and b both ways with the same bandwidth; a→b carries
// latency upLat and b→a carries downLat.
func (t *Topology) duplex(a, b int, bw units.Bandwidth, upLat, downLat units.Time, kind string) {
	t.addLink(a, b, bw, upLat, kind)
	t.addLink(b, a, bw, downLat, kind)
}

// LinkBetween returns the ID of the first direct link from → to.
func (t *Topology) LinkBetween(from, to int) (int, bool) {
	for _, l := range t.Links {
		if l.From == from && l.To == to {
			return l.ID, true
		}
	}
	return 0, false
}

// Validate checks that IDs are indices, links join distinct existing
// vertices, and every bandwidth and latency is in range.
func (t *Topology) Validate() error {
	var errs []error
	if len(t.GPUs) == 0 {
		errs = append(errs, errors.New("topology has no GPUs"))
	}
	for i, g := range t.GPUs {
		if g.ID != i {
			errs = append(errs, fmt.Errorf("gpus[%d]: id is %d, want %d", i, g.ID, i))
		}
	}
	for i, s := range t.Switches {
		if s.ID != len(t.GPUs)+i {
			errs = append(errs, fmt.Errorf("switches[%d]: id is %d, want %d", i, s.ID, len(t.GPUs)+i))
		}
	}
	n := t.Vertices()
	for i, l := range t.Links {
		switch {
		case l.ID != i:
			errs = append(errs, fmt.Errorf("links[%d]: id is %d, want %d", i, l.ID, i))
		case l.From < 0 || l.From >= n || l.To < 0 || l.To >= n:
			errs = append(errs, fmt.Errorf("links[%d]: joins vertex %d to vertex %d; vertices are 0..%d", i, l.From, l.To, n-1))
		case l.From == l.To:
			errs = append(errs, fmt.Errorf("links[%d]: joins vertex %d to itself", i, l.From))
		case !(l.Bandwidth > 0):
			errs = append(errs, fmt.Errorf("links[%d]: bandwidth is %v; must be > 0", i, l.Bandwidth))
		case l.Latency < 0:
			errs = append(errs, fmt.Errorf("links[%d]: latency is %v; must be ≥ 0", i, l.Latency))
		}
	}
	return errors.Join(errs...)
}
