package playground

import (
	"strconv"

	"paraplay/sim/cluster"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
)

// TPU slices in the form. A TPU preset picked in the accelerator select
// lays its chips out as a slice of its pod (cluster.topology); the slice
// select offers the pod's usual shapes, the mesh selects the ways each
// mesh axis (parallel.mesh.*) may split the chips, and the layout select
// the orders of the torus axes. A TPU option carries the slice to take
// when the one on show does not fit its pod (Option.Sets); the page
// (play.js) then clears the servers' keys and keeps the plan whole on the
// new chips. What stays wrong is refused over the canvas, naming the
// field, as any other bad value is. All of it is in the wasm, so it is
// kept small.

// sliceShapes are the shapes the slice select offers, for 2D and 3D pods:
// the power-of-two shapes the Cloud TPU documentation names its slice
// types by (v5litepod-16 is 4x4, v5p-128 is 4x4x4), each kept when it fits
// the pod (cluster.Slice.Check). Any other shape the pod takes can still
// be given in the address.
var sliceShapes = [2][]string{
	{"1x1", "2x2", "2x4", "4x4", "4x8", "8x8", "8x16", "16x16"},
	{"2x2x1", "2x2x2", "2x2x4", "2x4x4", "4x4x4", "4x4x8", "4x8x8", "8x8x8", "8x8x16", "8x16x16", "16x16x16"},
}

// servers reports whether the cluster is catalog GPUs in servers (not
// ideal links, not a TPU slice): only then do the links' presets and the
// node counts matter.
func servers(s scenario.Scenario) bool { return s.Cluster.GPU != "" && s.Cluster.Topology == "" }

// fits is the chips of one slice of the shape on the pod of TPU preset
// tpu, 0 when the pod does not take it (or tpu is no TPU). It bounds the
// mesh selects' lists by the largest pod.
func fits(tpu, shape string) int {
	sh, err := cluster.ParseShape(shape)
	if _, cerr := (cluster.Slice{TPU: tpu, Shape: sh, Slices: 1}).Check(); err != nil || cerr != nil || shape == "" {
		return 0
	}
	return sh[0] * sh[1] * sh[2]
}

// shapesFor is the shapes offered for TPU preset tpu's pod, none for a
// GPU; dims is the pod's torus dimensions.
func shapesFor(tpu string) (shapes []string, dims int) {
	pod, ok := hw.LookupPod(tpu)
	if ok {
		shapes = sliceShapes[pod.Dims/3]
	}
	return shapes, pod.Dims
}

// chooseSlices makes the topology control a select of the pod's shapes
// with their chips; without a TPU preset it is inactive.
func (c *Control) chooseSlices(s scenario.Scenario) {
	c.choose("")
	c.Options[0].Label = "none (GPUs)"
	shapes, _ := shapesFor(s.Cluster.GPU)
	for _, t := range shapes {
		if n := fits(s.Cluster.GPU, t); n > 0 {
			c.Options = append(c.Options, Option{Value: t, Label: t + " (" + strconv.Itoa(n) + " chips)"})
		}
	}
	c.Inactive = len(c.Options) == 1
}

// tpuSets is the slice picking TPU preset tpu takes: the slice on show
// when it fits the pod (only digits and x: ParseShape), else the pod's
// first shape of at least as many chips as the cluster has (its largest
// offered when none is).
func tpuSets(s scenario.Scenario, shapes []string, tpu string) string {
	if fits(tpu, s.Cluster.Topology) > 0 {
		return "topology=" + s.Cluster.Topology
	}
	pick := ""
	for _, t := range shapes {
		if n := fits(tpu, t); n > 0 {
			pick = t
			if n >= s.NumGPUs() {
				break
			}
		}
	}
	return "topology=" + pick
}

// chooseMesh makes a mesh axis a select of the divisors of the chips it
// may split: a slice's, the data axis all slices'. "0" leaves the axis
// unset (1 when another axis is set). The layout is a select of the
// orders of the torus axes, innermost first.
func (c *Control) chooseMesh(s scenario.Scenario) {
	c.Min, c.Max, c.Step = nil, nil, 0
	n := fits(s.Cluster.GPU, s.Cluster.Topology)
	c.Inactive = n == 0
	if c.Name == "mesh_layout" {
		if _, dims := shapesFor(s.Cluster.GPU); dims == 2 {
			c.choose("", "yx")
		} else {
			c.choose("", "xzy", "yxz", "yzx", "zxy", "zyx")
		}
		c.Options[0].Label = "xyz"
		return
	}
	if c.Name == "mesh_data" {
		n *= min(max(s.Cluster.Slices, 1), cluster.MaxSlices)
	}
	c.choose("0")
	c.Options[0].Label = "not set"
	for d := 1; d <= n; d++ {
		if n%d == 0 {
			c.choose(strconv.Itoa(d))
		}
	}
}

// sliceMarks greys out what only a slice reads when there is none. (With
// a mesh, dp, tp, cp and pp, and zero for an fsdp axis, follow from it:
// the page disables them and does not send them, play.js's derived.)
func (c *Control) sliceMarks(s scenario.Scenario) {
	switch c.Key {
	case "cluster.slices", "cluster.twisted", "cluster.wraparound":
		c.Inactive = s.Cluster.Topology == ""
	}
}
