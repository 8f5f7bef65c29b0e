package cluster

import (
	"fmt"
	"strconv"
	"strings"

	"paraplay/sim/hw"
	"paraplay/sim/topo"
)

// Slice is a slice of a TPU pod (hw.Pod), or several alike joined by the
// data-centre network: what a scenario's cluster.topology and
// cluster.slices name.
type Slice struct {
	// TPU is the accelerator preset, e.g. "tpu-v5p".
	TPU string
	// Shape is the chips along x, y and z, e.g. {4, 4, 8}.
	Shape [3]int
	// Slices is how many such slices the DCN joins, 1..MaxSlices.
	Slices int
	// Twisted wires the slice as a twisted torus (hw.Pod.Twistable).
	Twisted bool
	// NoWrap drops the wraparound links the hardware would give, to see
	// what they buy.
	NoWrap bool
	// Order is the axes in the order chip ids run through them, the first
	// fastest (topo.Torus.Order): where a training mesh's axes land.
	Order [3]int
}

// MaxSlices bounds cluster.slices.
const MaxSlices = 64

// ParseShape reads a slice's shape: one to three whole numbers joined by
// "x" ("16", "4x4", "4x4x8"), the missing axes 1.
func ParseShape(text string) ([3]int, error) {
	shape := [3]int{1, 1, 1}
	if len(text) > 32 { // an address's text: not echoed whole
		return shape, fmt.Errorf("is %d characters long; want a shape such as 4x4x8", len(text))
	}
	parts := strings.Split(strings.TrimSpace(text), "x")
	if len(parts) > 3 {
		return shape, fmt.Errorf("%q has %d axes; want 1 to 3, e.g. 4x4x8", text, len(parts))
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 1024 {
			return shape, fmt.Errorf("%q: axis %d is not a whole number 1..1024; want e.g. 4x4x8", text, i+1)
		}
		shape[i] = n
	}
	return shape, nil
}

// FormatShape writes a shape as ParseShape reads it, trailing 1s dropped.
func FormatShape(s [3]int) string {
	n := 3
	for n > 1 && s[n-1] == 1 {
		n--
	}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = strconv.Itoa(s[i])
	}
	return strings.Join(parts, "x")
}

// Check reports what is wrong with the slice on its pod, each error
// prefixed by the scenario key it concerns ("topology: …").
func (s Slice) Check() (hw.Pod, error) {
	pod, ok := hw.LookupPod(s.TPU)
	if !ok {
		return pod, fmt.Errorf("gpu: %q is no TPU; cluster.topology needs one of tpu-v4, tpu-v5e, tpu-v5p, tpu-v6e, tpu7x", s.TPU)
	}
	sorted := func(v [3]int) [3]int {
		a, b, c := v[0], v[1], v[2]
		a, b, c = min(a, b, c), a+b+c-min(a, b, c)-max(a, b, c), max(a, b, c)
		return [3]int{a, b, c}
	}
	sh, mx := sorted(s.Shape), sorted(pod.Max)
	chips := s.Shape[0] * s.Shape[1] * s.Shape[2]
	switch {
	case pod.Dims == 2 && s.Shape[2] != 1:
		return pod, fmt.Errorf("topology: %s is 3D; %s is a 2D torus (e.g. 16x16)", FormatShape(s.Shape), s.TPU)
	case sh[0] > mx[0] || sh[1] > mx[1] || sh[2] > mx[2] || chips > pod.Chips:
		return pod, fmt.Errorf("topology: %s (%d chips) does not fit a %s pod of %s (%d chips)", FormatShape(s.Shape), chips, s.TPU, FormatShape(pod.Max), pod.Chips)
	case s.Slices < 1 || s.Slices > MaxSlices:
		return pod, fmt.Errorf("slices: is %d; allowed 1..%d", s.Slices, MaxSlices)
	case s.Twisted && !pod.Twistable(s.Shape):
		return pod, fmt.Errorf("twisted: %s cannot twist; %s twists whole-cube shapes k×k×2k or k×2k×2k (e.g. 4x4x8)", FormatShape(s.Shape), s.TPU)
	}
	return pod, nil
}

// Torus is the slice's torus: its shape, the wraparound links its pod
// gives it (none with NoWrap), its hosts and slices.
func (s Slice) Torus(pod hw.Pod) topo.Torus {
	t := topo.Torus{Dims: s.Shape, Twisted: s.Twisted, Cube: pod.Cube, Slices: s.Slices, Order: s.Order}
	if !s.NoWrap {
		t.Wrap = pod.Wraps(s.Shape)
	}
	for i := range t.Host {
		t.Host[i] = min(pod.Host[i], s.Shape[i])
	}
	return t
}
