package plan

import (
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
	var seen [6][3][3]int64
	n := 0
layouts:
	for _, o := range orders {
		key, ok := layoutKey(t, o, axes)
		if ok && !all { // an uneven order (!ok) is never merged
			for _, k := range seen[:n] {
				if k == key {
					continue layouts
				}
			}
			seen[n] = key
			n++
		}
		out = append(out, layoutName(o))
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
// axis, the runs of torus axes it takes (at most three), each packed in
// one number (the axis's chips, the chips taken and their stride, 11 bits
// each; wraparound; host width over several slices; on a twisted torus,
// which axis), 0 past its last run. Integers rather than text keep the
// browser's copy of the planner small. A model or data axis whose runs
// all have stride 1 is a box of the torus, whose collectives (torus
// boxes, torus.go in sim/training) do not depend on the order of its
// runs, so they are sorted; a seq axis keeps its order (ring attention
// passes along the ranks). ok is false when a mesh axis ends part-way
// through a torus axis it does not divide (its groups are then not boxes
// of one shape).
func layoutKey(t topo.Torus, o [3]int, axes []int) (key [3][3]int64, ok bool) {
	var rem [3]int
	for p, a := range o {
		rem[p] = t.Dims[a]
	}
	p := 0
	for k, n := range axes {
		runs := key[k][:0]
		box := true
		for n > 1 {
			for p < 3 && rem[p] == 1 {
				p++
			}
			if p == 3 || len(runs) == 3 {
				return key, false
			}
			a, r, take := o[p], rem[p], rem[p]
			switch {
			case n%r == 0:
			case r%n == 0:
				take = n
			default:
				return key, false
			}
			id, host := -1, 0
			if t.Twisted {
				id = a
			}
			if t.Slices > 1 {
				host = t.Host[a] // one slice has no host links (topo.BuildTorus)
			}
			runs = append(runs, int64(t.Dims[a])|int64(take)<<11|int64(t.Dims[a]/r)<<22|
				int64(boolInt(t.Wrap[a]))<<33|int64(host)<<34|int64(id+1)<<40)
			box = box && t.Dims[a] == r
			rem[p], n = r/take, n/take
		}
		for i := 1; box && k != 1 && i < len(runs); i++ {
			for j := i; j > 0 && runs[j] < runs[j-1]; j-- {
				runs[j], runs[j-1] = runs[j-1], runs[j]
			}
		}
	}
	return key, true
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}
