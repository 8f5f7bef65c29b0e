//go:build !js

package plan

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/topo"
)

// orders are the six orders of a slice's torus axes, x, y, z first: the
// values of parallel.mesh.layout ("" is xyz), which say which torus axes
// each mesh axis fills, innermost (model) first.
var orders = [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

// meshLayouts lists the layouts the planner tries for a mesh of tp model,
// cp seq and dp data-parallel ways (data or fsdp) on base's slice: every
// order of the torus axes, less an order that lays each mesh axis on the
// same runs of torus axes alike (the same chips, wraparound and hosts, the
// same stride) as an order listed before. Two such orders give every
// group the same shape on links of the same kind, so the simulator runs
// them in the same time: dropping one cannot drop the optimum. With all
// (Config.Exhaustive) every order is tried, so that
// TestPruningMatchesExhaustiveOnSlices checks the merging too.
func meshLayouts(base scenario.Scenario, tp, cp, dp int, all bool) []string {
	sl, ok := base.Slice()
	if !ok {
		return []string{""}
	}
	pod, err := sl.Check()
	if err != nil {
		return []string{""} // validation names the field
	}
	t := sl.Torus(pod)
	axes := []int{tp, cp, dp / max(t.Slices, 1)}
	var out []string
	seen := map[string]bool{}
	for _, o := range orders {
		key, ok := layoutKey(t, o, axes)
		if !ok || all {
			key = "order " + layoutName(o) // uneven: never merged
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, layoutName(o))
		}
	}
	return out
}

// layoutName is order o as parallel.mesh.layout writes it, "" for xyz.
func layoutName(o [3]int) string {
	if o == orders[0] {
		return ""
	}
	return axesName(o)
}

// axesName writes order o as letters, innermost first: "zxy".
func axesName(o [3]int) string {
	return string([]byte{'x' + byte(o[0]), 'x' + byte(o[1]), 'x' + byte(o[2])})
}

// layoutKey describes where the mesh axes (sizes inner first: model, seq,
// data) land when chip ids run through t's axes in order o: for each mesh
// axis, the runs of torus axes it takes, each as the axis's chips,
// wraparound, host width over several slices (and, on a twisted torus, which axis), the chips
// taken and their stride. A model or data axis whose runs all have stride
// 1 is a box of the torus, whose collectives (torus boxes, torus.go in
// sim/training) do not depend on the order of its runs, so they are
// sorted; a seq axis keeps its order (ring attention passes along the
// ranks). ok is false when a mesh axis ends part-way through a torus axis
// it does not divide (its groups are then not boxes of one shape).
func layoutKey(t topo.Torus, o [3]int, axes []int) (string, bool) {
	var rem [3]int
	for p, a := range o {
		rem[p] = t.Dims[a]
	}
	var b strings.Builder
	p := 0
	for k, n := range axes {
		var runs []string
		box := true
		for n > 1 {
			for p < 3 && rem[p] == 1 {
				p++
			}
			if p == 3 {
				return "", false
			}
			a, r, take := o[p], rem[p], rem[p]
			switch {
			case n%r == 0:
			case r%n == 0:
				take = n
			default:
				return "", false
			}
			id, host := -1, 0
			if t.Twisted {
				id = a
			}
			if t.Slices > 1 {
				host = t.Host[a] // one slice has no host links (topo.BuildTorus)
			}
			var run []byte
			for _, v := range []int{t.Dims[a], boolInt(t.Wrap[a]), host, id, take, t.Dims[a] / r} {
				run = append(strconv.AppendInt(run, int64(v), 10), ',')
			}
			runs = append(runs, string(run))
			box = box && t.Dims[a] == r
			rem[p], n = r/take, n/take
		}
		if box && k != 1 {
			sort.Strings(runs)
		}
		b.WriteString(strings.Join(runs, ";"))
		b.WriteByte('|')
	}
	return b.String(), true
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

// meshLabel names a TPU plan's mesh and the torus axes it fills, "" off a
// slice.
func meshLabel(m scenario.Mesh) string {
	if !m.Set() {
		return ""
	}
	o, _ := m.Order()
	return fmt.Sprintf("mesh data %d × fsdp %d × seq %d × model %d on %s", max(m.Data, 1), max(m.FSDP, 1), max(m.Seq, 1), max(m.Model, 1), axesName(o))
}
