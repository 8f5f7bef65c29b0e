package scenario

import (
	"strconv"

	"paraplay/sim/cluster"
)

// Mesh names a training run's device mesh the way JAX and MaxText users
// do: how many ways the batch is split with replicated parameters (Data),
// with sharded parameters, optimizer states and gradients (FSDP: ZeRO-3),
// how many ways each sequence is split (Seq: context parallelism) and the
// layers' matrices (Model: tensor parallelism). The axes are laid out on
// the chips innermost first, model, seq, fsdp, data, over chip ids that
// run x fastest, then y, then z, then slice: a model axis of 4 on a
// 4x4x8 slice is its x axis. Layout reorders the torus axes the chip ids
// run through (topo.Torus.Order), so it says which torus axes each mesh
// axis takes: with layout zxy, a model axis of 8 on a 4x4x8 slice is its
// z axis. A zero axis is 1.
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
	// Layout is the torus axes ("x", "y", "z", each at most once) the mesh
	// fills, innermost first; the axes it leaves out follow in x, y, z
	// order. Empty: xyz.
	Layout string `yaml:"layout" json:"layout,omitempty"`
}

// Order is the torus axes in Layout's order, the ones it leaves out after
// them in x, y, z order (topo.Torus.Order), and whether Layout is valid.
func (m Mesh) Order() (o [3]int, ok bool) {
	var seen [3]bool
	n := 0
	for _, r := range m.Layout {
		a := int(r - 'x')
		if a < 0 || a > 2 || seen[a] {
			return [3]int{0, 1, 2}, false
		}
		seen[a], o[n] = true, a
		n++
	}
	for a := range seen {
		if !seen[a] {
			o[n] = a
			n++
		}
	}
	return o, true
}

// MeshSlice is Slice with the chips numbered as parallel.mesh.layout lays
// the mesh out (cluster.Slice.Order); s must be valid.
func (s *Scenario) MeshSlice() (cluster.Slice, bool) {
	sl, ok := s.Slice()
	sl.Order, _ = s.Parallel.Mesh.Order()
	return sl, ok
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

// chips is the chips of the slices, 0 for a shape that does not parse.
func (c Cluster) chips() int {
	shape, err := cluster.ParseShape(c.Topology)
	if err != nil {
		return 0
	}
	return shape[0] * shape[1] * shape[2] * max(c.Slices, 1)
}
