package topo

import "fmt"

// ParameterServer builds a parameter-server cluster: workers GPUs (node 0,
// ids 0..workers−1) and servers server hosts (node 1, ids workers.., Role
// RoleServer), every one with a full-duplex port on one non-blocking
// switch of the network (node −1). Workers' ports are worker, the hosts'
// are server; as in Switched, the latency is paid on the way into the
// switch.
func ParameterServer(workers, servers int, worker, server Port) *Topology {
	t := &Topology{Nodes: 2}
	for i := 0; i < workers; i++ {
		t.addGPU(0, i)
	}
	for j := 0; j < servers; j++ {
		id := t.addGPU(1, j)
		t.GPUs[id].Role = RoleServer
		t.GPUs[id].Name = fmt.Sprintf("PS %d", j)
	}
	sw := t.addSwitch("switch", "leaf", -1)
	for i := 0; i < workers; i++ {
		t.duplex(i, sw, worker.Bandwidth, worker.Latency, 0, kindOr(worker.Kind, "ideal"))
	}
	for j := 0; j < servers; j++ {
		t.duplex(workers+j, sw, server.Bandwidth, server.Latency, 0, kindOr(server.Kind, "ideal"))
	}
	return t
}
