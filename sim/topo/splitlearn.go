package topo

import "fmt"

// Roles of the endpoints of split and federated learning.
const (
	// RoleClient marks a client device (phone, laptop, edge board) that
	// computes the first layers on its own data: no accelerator.
	RoleClient = "client"
	// RoleCompute marks a compute node that holds part of the server side
	// of a split model.
	RoleCompute = "compute"
)

// ClientPort is a client device's access link: asymmetric, as home and
// mobile links are.
type ClientPort struct {
	// Up and Down are the uplink (client → network) and downlink rates.
	Up, Down Port
}

// SplitLearning builds the network of split learning: clients client
// devices (node 0, ids 0..clients−1, Role RoleClient) on access links of
// their own to an internet switch (node −1, kind "wan"), and hops compute
// nodes (node 1, ids clients.., Role RoleCompute) in a chain: compute node
// 0 on the switch through server, and node k joined to node k+1 by a
// direct link hop both ways. Messages between a client and compute node 0
// cross the client's access link and the server's port; activations
// between compute nodes take the chain.
func SplitLearning(clients []ClientPort, hops int, server, hop Port) *Topology {
	n := len(clients)
	t := &Topology{Nodes: 2}
	for i := 0; i < n; i++ {
		id := t.addGPU(0, i)
		t.GPUs[id].Role = RoleClient
		t.GPUs[id].Name = fmt.Sprintf("client %d", i)
	}
	for k := 0; k < hops; k++ {
		id := t.addGPU(1, k)
		t.GPUs[id].Role = RoleCompute
		t.GPUs[id].Name = fmt.Sprintf("compute %d", k)
	}
	sw := t.addSwitch("internet", "wan", -1)
	for i, c := range clients {
		t.addLink(i, sw, c.Up.Bandwidth, c.Up.Latency, kindOr(c.Up.Kind, "wan"))
		t.addLink(sw, i, c.Down.Bandwidth, c.Down.Latency, kindOr(c.Down.Kind, "wan"))
	}
	t.duplex(n, sw, server.Bandwidth, server.Latency, server.Latency, kindOr(server.Kind, "ethernet"))
	for k := 0; k+1 < hops; k++ {
		t.duplex(n+k, n+k+1, hop.Bandwidth, hop.Latency, hop.Latency, kindOr(hop.Kind, "ethernet"))
	}
	return t
}
