package scenario

import (
	"paraplay/sim/cluster"
	"paraplay/sim/hw"
)

// validateTorus checks a TPU slice (cluster.topology, slices, twisted,
// wraparound) and a mesh against it.
func (s *Scenario) validateTorus(keys Keys, bad Reporter) {
	c := s.Cluster
	if c.Topology == "" {
		for _, f := range []struct {
			key string
			set bool
		}{{"cluster.slices", c.Slices > 1}, {"cluster.twisted", c.Twisted}, {"cluster.wraparound", c.Wraparound != ""}} {
			if f.set {
				bad(f.key, "needs cluster.topology (a TPU slice, e.g. 4x4x8)")
			}
		}
		if _, ok := hw.LookupPod(c.GPU); ok {
			bad("cluster.topology", "is empty; %s chips form a torus: give the slice's shape, e.g. 4x4x4 (paraplay presets lists each pod's)", c.GPU)
		}
		if s.Parallel.Mesh.Set() || s.Parallel.Mesh.Layout != "" {
			bad("parallel.mesh", "needs a TPU slice (cluster.topology)")
		}
		return
	}
	if c.Nodes > 1 || c.GPUsPerNode > 0 || len(c.NodeGPUs) > 0 || c.Intra != "" || c.Inter != "" || c.Network != "" {
		bad("cluster.topology", "sets the chips and their links; leave cluster.nodes, gpus_per_node, node_gpus, intra, inter and network unset")
	}
	if c.Wraparound != "" && c.Wraparound != "auto" && c.Wraparound != "none" {
		bad("cluster.wraparound", "is %q; allowed: auto (the hardware's), none", c.Wraparound)
	}
	shape, err := cluster.ParseShape(c.Topology)
	if err != nil {
		bad("cluster.topology", "%v", err)
		return
	}
	if _, err := s.slice(shape).Check(); err != nil {
		key, msg := splitKey(err.Error())
		bad("cluster."+key, "%s", msg)
		return
	}
	lo, hi := keys.GPURange()
	if n := s.NumGPUs(); n < lo || n > hi {
		bad("cluster.topology", "%s × %d slices = %d chips; allowed %d..%d for strategy %s", c.Topology, max(c.Slices, 1), n, lo, hi, s.Strategy)
	}
	s.validateMesh(shape, bad)
}

// validateMesh checks parallel.mesh against the slice: its axes multiply
// to the chips, none but data is larger than one slice, and data spans the
// slices whole.
func (s *Scenario) validateMesh(shape [3]int, bad Reporter) {
	m := s.Parallel.Mesh
	if _, ok := m.Order(); !ok {
		bad("parallel.mesh.layout", "is %q; want torus axes x, y, z, each at most once, innermost first (e.g. zxy)", m.Layout[:min(len(m.Layout), 8)])
	}
	if !m.Set() {
		if m.Layout != "" {
			bad("parallel.mesh.layout", "needs the mesh's axes (parallel.mesh.data, fsdp, seq, model)")
		}
		return
	}
	a := m.axes()
	per := shape[0] * shape[1] * shape[2]
	for i, name := range [4]string{"data", "fsdp", "seq", "model"} {
		if n := [4]int{m.Data, m.FSDP, m.Seq, m.Model}[i]; n < 0 || (i > 0 && n > per) {
			bad("parallel.mesh."+name, "is %d; allowed 1..%d (the chips of one slice)", n, per)
		}
	}
	inner := a[1] * a[2] * a[3]
	slices := max(s.Cluster.Slices, 1)
	switch {
	case a[0]*inner != per*slices:
		bad("parallel.mesh", "data × fsdp × seq × model = %d; want the %d chips of the cluster", a[0]*inner, per*slices)
	case per%inner != 0:
		bad("parallel.mesh", "fsdp × seq × model = %d must divide the %d chips of a slice (only data spans slices)", inner, per)
	}
	dp, tp, cp, pp, _ := m.plan()
	if p := s.Parallel; p.DP != dp || p.TP != tp || p.CP != cp || p.PP != pp {
		bad("parallel.mesh", "stands for dp %d, tp %d, cp %d, pp %d, but the plan says dp %d, tp %d, cp %d, pp %d", dp, tp, cp, pp, p.DP, p.TP, p.CP, p.PP)
	}
}
