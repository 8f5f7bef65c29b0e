//go:build !js

package opgraph

import (
	"fmt"
	"strconv"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// The searches a scenario can run (graph.search), host only (the browser
// leaves them out for their size, search_js.go): FlexFlow's MCMC over each
// operator's split (flexflow.go), whose best plan the run then plays
// (simulateFlex), and DLPlacer's placement of a module's branches on the
// GPUs of one worker (place.go), whose best placement it plays
// (simulatePlaced). Their workloads are VGG-16 and GoogLeNet's module 3a.

// flexBeta is the MCMC's β: a plan 1% dearer is taken with probability
// e^−0.02.
const flexBeta = 2

// searchModel is the graph of graph.model vgg16 or inception3a.
func searchModel(y Settings) (Graph, error) {
	if y.Model == ModelVGG16 {
		return VGG16(y.Image)
	}
	return Inception3a(), nil
}

// checkSearch refuses a graph.search that does not fit the graph section,
// naming the key.
func checkSearch(y Settings) error {
	switch {
	case y.Search != "" && y.Search != SearchFlexFlow && y.Search != SearchDLPlacer:
		return fmt.Errorf("graph.search: is %q; allowed flexflow, dlplacer or empty", y.Search)
	case y.Search != "" && y.Split != Data:
		return fmt.Errorf("graph.split: is %q; allowed data with graph.search %s (the search starts from data parallelism)", y.Split, y.Search)
	case (y.Model == ModelInception) != (y.Search == SearchDLPlacer):
		return fmt.Errorf("graph.search: is %q; allowed dlplacer exactly when graph.model is inception3a (its branches are what DLPlacer places)", y.Search)
	case y.Search == SearchFlexFlow && y.Model == ModelUNet3D:
		return fmt.Errorf("graph.model: is unet3d; allowed with graph.search flexflow resnet50, seq2seq-lstm, vgg16 (FlexCost prices a chain)")
	case y.Search == SearchFlexFlow && (y.SearchSteps < 1 || y.SearchSteps > MaxSearchSteps):
		return fmt.Errorf("graph.search_steps: is %d; allowed 1..%d", y.SearchSteps, MaxSearchSteps)
	}
	return nil
}

// VGG16 is VGG-16 (Simonyan and Zisserman 2015, "Very Deep Convolutional
// Networks for Large-Scale Image Recognition", Table 1, configuration D)
// for size×size images: thirteen 3×3 convolutions of 64, 64, 128, 128,
// 256 ×3, 512 ×6 channels, each with a ReLU, a 2×2 max pool after the
// 2nd, 4th, 7th, 10th and 13th, then dense layers of 4,096, 4,096 and
// 1,000 (dropout left out: no parameters, negligible time). Its
// convolutions have biases, which Op.Params leaves out (a batch norm
// follows ResNet's): VGG16Params adds them back.
func VGG16(size int) (Graph, error) {
	if size < 32 || size > MaxImage || size%32 != 0 {
		return Graph{}, fmt.Errorf("graph.image: is %d; allowed a multiple of 32 from 32 to 1024", size)
	}
	g := &Graph{Name: "vgg16-" + strconv.Itoa(size)}
	in, h, n, pools := 3, size, 0, 0
	for _, c := range []int{64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0} {
		if c == 0 {
			h, pools = h/2, pools+1
			g.add("pool"+strconv.Itoa(pools), MaxPool, in, in, 2, 2, h)
			continue
		}
		n++
		g.add("conv"+strconv.Itoa(n), Conv, in, c, 3, 1, h)
		g.add("relu", ReLU, c, c, 0, 0, h)
		in = c
	}
	g.add("fc6", Dense, in*h*h, 4096, 0, 0, 1)
	g.add("relu6", ReLU, 4096, 4096, 0, 0, 1)
	g.add("fc7", Dense, 4096, 4096, 0, 0, 1)
	g.add("relu7", ReLU, 4096, 4096, 0, 0, 1)
	g.add("fc8", Dense, 4096, 1000, 0, 0, 1)
	return *g, g.Validate()
}

// VGG16Params is g's parameters with its convolutions' biases (VGG16).
func VGG16Params(g Graph) int64 {
	n := g.Params()
	for _, o := range g.Ops {
		if o.Kind == Conv {
			n += int64(o.Out)
		}
	}
	return n
}

// Inception3a is GoogLeNet's module 3a (Szegedy et al. 2015, "Going
// Deeper with Convolutions", Table 1) on its 28×28×192 input, its four
// branches one after another, each starting from the module's input (an
// operator that reads no other): a 1×1 convolution to 64; 1×1 to 96 then
// 3×3 to 128; 1×1 to 16 then 5×5 to 32; a 3×3 max pool then 1×1 to 32.
func Inception3a() Graph {
	g := &Graph{Name: "inception3a"}
	for n, br := range [][][3]int{{{192, 64, 1}}, {{192, 96, 1}, {96, 128, 3}}, {{192, 16, 1}, {16, 32, 5}}, {{192, 192, 0}, {192, 32, 1}}} {
		for k, c := range br {
			kind := Conv
			if c[2] == 0 {
				kind, c[2] = MaxPool, 3
			}
			i := g.add("branch"+strconv.Itoa(n+1)+"."+kind.String()+strconv.Itoa(c[2]), kind, c[0], c[1], c[2], 1, 28)
			if k == 0 {
				g.Ops[i].Inputs = nil
			}
		}
	}
	return *g
}

// branchesOf cuts g into its branches: each starts at an operator that
// reads no other.
func branchesOf(g Graph) []Branch {
	var out []Branch
	for _, o := range g.Ops {
		if len(o.Inputs) == 0 || len(out) == 0 {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], o)
	}
	return out
}

// moduleInput is the bytes of b samples of the input g's branches read:
// the first operator's input channels over its output's pixels (stride 1).
func moduleInput(g Graph, b int) units.Bytes {
	o := g.Ops[0]
	return units.Bytes(o.In * o.H * o.W * b * bytesPerElement)
}

// searchLinks are α and the bandwidth between GPUs 0 and 1 of base's
// server (none to price on one GPU).
func searchLinks(base scenario.Scenario) (Links, error) {
	t, err := topology(base)
	if err != nil || base.NumGPUs() < 2 {
		return Links{B: 1}, err
	}
	a, bw, err := topo.NewRouter(t).PathCost(0, 1)
	return Links{a, bw}, err
}

// searchResult runs r's search on base's server: FlexFlow's best plan
// with the walk's improvements, or DLPlacer's placement (on) with its
// critical path.
func searchResult(g Graph, r Run, gpu hw.GPU, base scenario.Scenario) (plan []Split, cost float64, walk []flexStep, on []int, err error) {
	l, err := searchLinks(base)
	if err != nil {
		return nil, 0, nil, nil, err
	}
	if r.Search == SearchDLPlacer {
		on, t, err := PlaceBranches(branchesOf(g), moduleInput(g, r.Batch), r.Batch, r.GPUs, gpu, l.Alpha, l.B)
		return nil, t.Seconds(), nil, on, err
	}
	plan, cost, walk = flexWalk(g, r.Batch, r.GPUs, gpu, l, r.Steps, flexBeta, r.Seed)
	return plan, cost, walk, nil, nil
}

// simulateSearch plays the best result of r's search.
func simulateSearch(g Graph, r Run, gpu hw.GPU, base scenario.Scenario) (*timeline.Timeline, error) {
	plan, _, _, on, err := searchResult(g, r, gpu, base)
	if err != nil {
		return nil, err
	}
	if r.Search == SearchDLPlacer {
		return simulatePlaced(branchesOf(g), on, moduleInput(g, r.Batch), r.Batch, r.GPUs, base)
	}
	return simulateFlex(g, plan, r, gpu, base)
}

// simulateFlex plays plan as FlexCost prices it (flexflow.go), every step
// on all GPUs at once and waiting for the step before (FlexCost adds them
// without overlap): forward through the operators, an operator split by
// samples on b/G samples, one split by parameters on all b at 1/G of the
// work, after a ring all-gather of its input when the operator before was
// split by samples and followed by one of its output; then backward in
// reverse, twice each forward, an operator split by samples followed by
// the ring all-reduce of its bf16 gradient, one split by parameters by
// that of its input's gradient. Every collective runs on the links.
func simulateFlex(g Graph, plan []Split, r Run, gpu hw.GPU, base scenario.Scenario) (*timeline.Timeline, error) {
	h, err := newBuilder(base, ", FlexFlow's plan", g, r)
	if err != nil {
		return nil, err
	}
	G, b := r.GPUs, r.Batch
	all := taskgraph.Identity(G)
	cur := -1 // the step every GPU waits for
	compute := func(k timeline.Kind, i int, d units.Time) {
		ids := make([]int, G)
		for x := range ids {
			ids[x] = h.run(x, k, g.Ops[i].Name, 0, 0, d, cur)
		}
		cur = h.tg.AddJoin(ids...)
	}
	coll := func(sch collective.Schedule, purpose string) {
		if G < 2 || len(sch.Transfers) == 0 {
			return
		}
		ready := make([]int, G)
		for x := range ready {
			ready[x] = cur
		}
		first := h.tg.AddSchedule(sch, all, ready, purpose)
		ids := make([]int, len(sch.Transfers))
		for k := range ids {
			ids[k] = first + k
		}
		cur = h.tg.AddJoin(ids...)
	}
	split := func(i int) Split {
		if g.Ops[i].Params() == 0 {
			return BySamples
		}
		return plan[i]
	}
	gf := units.Time(G)
	for i, o := range g.Ops {
		if split(i) == BySamples {
			compute(timeline.Forward, i, forwardTime(o, b/G, gpu))
			continue
		}
		if i > 0 && split(i-1) == BySamples {
			coll(collective.AllGatherRing(G, outBytes(g.Ops[i-1], b)), "tp")
		}
		compute(timeline.Forward, i, forwardTime(o, b, gpu)/gf)
		coll(collective.AllGatherRing(G, outBytes(o, b)), "tp")
	}
	for i := len(g.Ops) - 1; i >= 0; i-- {
		o := g.Ops[i]
		if split(i) == BySamples {
			compute(timeline.Backward, i, 2*forwardTime(o, b/G, gpu))
			coll(collective.Ring(G, units.Bytes(2*o.Params())), "dp")
			continue
		}
		compute(timeline.Backward, i, 2*forwardTime(o, b, gpu)/gf)
		if i > 0 {
			coll(collective.Ring(G, outBytes(g.Ops[i-1], b)), "tp")
		}
	}
	return h.tg.Finish("opgraph")
}
