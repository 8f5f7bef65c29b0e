package scenario

import (
	"strconv"

	"paraplay/sim/cluster"
	"paraplay/sim/hw"
)

// Mesh names a training run's device mesh the way JAX and MaxText users
// do: how many ways the batch is split with replicated parameters (Data),
// with sharded parameters, optimizer states and gradients (FSDP: ZeRO-3),
// how many ways each sequence is split (Seq: context parallelism) and the
// layers' matrices (Model: tensor parallelism). The axes are laid out on
// the chips innermost first, model, seq, fsdp, data, over chip ids that
// run x fastest, then y, then z, then slice: a model axis of 4 on a
// 4x4x8 slice is its x axis. A zero axis is 1.
type Mesh struct {
	// Data is the data-parallel ways with replicated parameters; the
	// outermost axis, the one that may span slices over the DCN.
	Data int `yaml:"data" json:"data,omitempty"`
	// FSDP is the data-parallel ways with sharded parameters (ZeRO-3).
	FSDP int `yaml:"fsdp" json:"fsdp,omitempty"`
	// Seq is the sequence (context) parallel ways.
	Seq int `yaml:"seq" json:"seq,omitempty"`
	// Model is the tensor-parallel ways, innermost.
	Model int `yaml:"model" json:"model,omitempty"`
}

// Set reports whether any axis is given.
func (m Mesh) Set() bool { return m.Data+m.FSDP+m.Seq+m.Model > 0 }

// axes is the four axes with 0 read as 1: data, fsdp, seq, model.
func (m Mesh) axes() [4]int {
	a := [4]int{m.Data, m.FSDP, m.Seq, m.Model}
	for i := range a {
		a[i] = max(a[i], 1)
	}
	return a
}

// plan is the parallel plan the mesh stands for: dp = data × fsdp (ZeRO-3
// over all of them when fsdp > 1), tp = model, cp = seq, pp = 1.
func (m Mesh) plan() (dp, tp, cp, pp, zero int) {
	a := m.axes()
	dp, tp, cp, pp = a[0]*a[1], a[3], a[2], 1
	if a[1] > 1 {
		zero = 3
	}
	return dp, tp, cp, pp, zero
}

// applyMesh sets the plan's dp, tp, cp and pp (and zero, for fsdp) from
// parallel.mesh when it is given, after a file or URL has been read; a
// key that says otherwise (seen) is an error naming parallel.mesh.
func applyMesh(s *Scenario, seen map[string]bool) []error {
	m := s.Parallel.Mesh
	if !m.Set() {
		return nil
	}
	dp, tp, cp, pp, zero := m.plan()
	var errs []error
	for _, c := range []struct {
		key       string
		dst       *int
		want      int
		keepIfSet bool
	}{{"parallel.dp", &s.Parallel.DP, dp, false}, {"parallel.tp", &s.Parallel.TP, tp, false}, {"parallel.cp", &s.Parallel.CP, cp, false},
		{"parallel.pp", &s.Parallel.PP, pp, false}, {"parallel.zero", &s.Parallel.ZeRO, zero, zero == 0}} {
		switch {
		case seen[c.key] && c.keepIfSet:
		case seen[c.key] && *c.dst != c.want:
			errs = append(errs, &FieldError{Field: "parallel.mesh", Msg: "says " + c.key[len("parallel."):] + " " + strconv.Itoa(c.want) + " but " + c.key + " is " + strconv.Itoa(*c.dst) + "; give one or the other"})
		default:
			*c.dst = c.want
		}
	}
	return errs
}

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
		if s.Parallel.Mesh.Set() {
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
	if !m.Set() {
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

// slice is the cluster's TPU slice of the given shape.
func (s *Scenario) slice(shape [3]int) cluster.Slice {
	c := s.Cluster
	return cluster.Slice{TPU: c.GPU, Shape: shape, Slices: max(c.Slices, 1), Twisted: c.Twisted, NoWrap: c.Wraparound == "none"}
}

// Slice is the scenario's TPU slice (cluster.topology and the keys beside
// it), and whether it has one; s must be valid.
func (s *Scenario) Slice() (cluster.Slice, bool) {
	if s.Cluster.Topology == "" {
		return cluster.Slice{}, false
	}
	shape, _ := cluster.ParseShape(s.Cluster.Topology)
	return s.slice(shape), true
}

// chips is the chips of the slices, 0 for a shape that does not parse.
func (c Cluster) chips() int {
	shape, err := cluster.ParseShape(c.Topology)
	if err != nil {
		return 0
	}
	return shape[0] * shape[1] * shape[2] * max(c.Slices, 1)
}

// splitKey splits "key: message" into the key and the message.
func splitKey(msg string) (string, string) {
	for i := 0; i+1 < len(msg); i++ {
		if msg[i] == ':' && msg[i+1] == ' ' {
			return msg[:i], msg[i+2:]
		}
	}
	return "topology", msg
}
