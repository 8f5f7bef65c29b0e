//go:build !js

package opgraph

import (
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/nccltest"
	"paraplay/sim/topo"
)

// vggLike is VGG-16's shape in brief (Simonyan and Zisserman 2015): five
// convolutions with their ReLUs over shrinking images, then the three
// dense layers of 25,088 → 4,096 → 4,096 → 1,000 that hold most of the
// weights.
func vggLike() Graph {
	g := &Graph{Name: "vgg-like"}
	in := 3
	for i, c := range []struct{ out, h int }{{64, 224}, {128, 112}, {256, 56}, {512, 28}, {512, 14}} {
		g.add("conv", Conv, in, c.out, 3, 1, c.h)
		g.add("relu", ReLU, c.out, c.out, 0, 0, c.h)
		if i == 4 {
			g.add("pool", MaxPool, c.out, c.out, 2, 2, 7)
		}
		in = c.out
	}
	g.add("fc6", Dense, 25088, 4096, 0, 0, 1)
	g.add("fc7", Dense, 4096, 4096, 0, 0, 1)
	g.add("fc8", Dense, 4096, 1000, 0, 0, 1)
	return *g
}

// flexSetup is eight H100s on NVLink and their links.
func flexSetup(t *testing.T) (hw.GPU, Links) {
	gpu, _ := hw.LookupGPU("h100-sxm")
	tp, err := nccltest.Topology(hostScenario(Run{GPU: "h100-sxm", GPUs: 8}))
	if err != nil {
		t.Fatal(err)
	}
	a, bw, err := topo.NewRouter(tp).PathCost(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	return gpu, Links{a, bw}
}

// TestFlexSearchBeatsUniform is the case FlexFlow's per-operator choice
// was made for (and Krizhevsky's "one weird trick" before it): on a
// VGG-like network the convolutions, with few weights and large
// activations, stay split by samples, the large dense layers go split by
// parameters, and the mixed plan is cheaper than both uniform plans; the
// search finds the exhaustive optimum, and the same seed gives the same
// plan.
func TestFlexSearchBeatsUniform(t *testing.T) {
	g := vggLike()
	gpu, l := flexSetup(t)
	const b, G = 256, 8
	all := func(s Split) []Split {
		p := make([]Split, len(g.Ops))
		for i := range p {
			p[i] = s
		}
		return p
	}
	dp, mp := FlexCost(g, all(BySamples), b, G, gpu, l), FlexCost(g, all(ByParams), b, G, gpu, l)
	plan, cost := FlexSearch(g, b, G, gpu, l, 500, 2, 1)
	_, ex := FlexExhaustive(g, b, G, gpu, l)
	if cost >= min(dp, mp) || cost != ex {
		t.Errorf("searched %.4g s, exhaustive %.4g s, all by samples %.4g s, all by parameters %.4g s; want searched = exhaustive < both", cost, ex, dp, mp)
	}
	for i, o := range g.Ops {
		switch {
		case o.Kind == Conv && plan[i] != BySamples:
			t.Errorf("op %d (%s) split by parameters, want by samples", i, o.Name)
		case o.Kind == Dense && o.In >= 4096 && o.Out >= 4096 && plan[i] != ByParams:
			t.Errorf("op %d (%s, %d×%d) split by samples, want by parameters", i, o.Name, o.In, o.Out)
		}
	}
	again, _ := FlexSearch(g, b, G, gpu, l, 500, 2, 1)
	for i := range plan {
		if plan[i] != again[i] {
			t.Fatalf("the same seed gave two plans: %v, %v", plan, again)
		}
	}
	t.Logf("VGG-like, batch %d on %d H100s: all by samples %.3f ms, all by parameters %.3f ms, searched %.3f ms (%.2f× the better uniform)",
		b, G, 1e3*dp, 1e3*mp, 1e3*cost, min(dp, mp)/cost)
}

// TestFlexSearchTinyIsExhaustive holds the search to the exhaustive
// optimum on a chain of four dense layers of different shapes (16 plans),
// over several seeds.
func TestFlexSearchTinyIsExhaustive(t *testing.T) {
	g := &Graph{Name: "tiny"}
	for _, d := range [][2]int{{1024, 16384}, {16384, 256}, {256, 8192}, {8192, 8192}} {
		g.add("dense", Dense, d[0], d[1], 0, 0, 1)
	}
	gpu, l := flexSetup(t)
	_, ex := FlexExhaustive(*g, 64, 8, gpu, l)
	for seed := range uint64(5) {
		if _, c := FlexSearch(*g, 64, 8, gpu, l, 200, 2, seed); c != ex {
			t.Errorf("seed %d: searched %.6g s, exhaustive %.6g s", seed, c, ex)
		}
	}
}
