//go:build !js

package opgraph

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Placement of a module's parallel branches on the GPUs of one
// data-parallel worker, after DLPlacer (Pal et al. 2019, "Optimizing
// Multi-GPU Parallelization Strategies for Deep Learning Training"): a
// worker that is a group of G GPUs runs the branches of an Inception-style
// module side by side, GPU 0 holding the module's input and output. A
// branch on another GPU costs the input sent there and its output sent
// back. Host only; graph.search dlplacer runs it on GoogLeNet's module 3a
// (search.go).
//
// With branch b's forward-and-backward time t_b, the input's send c_in and
// the send of GPU g's outputs together c_g (α + bytes/B each), the module
// takes the critical path
//
//	T = max( Σ_{b on GPU 0} t_b,  max_{g>0} (c_in + Σ_{b on g} t_b + c_g) )
//
// when each GPU runs its branches back to back and the sends do not share
// a link (one remote GPU, or free links: TestPlaceClosedForm). PlaceBranches searches every assignment of
// the branches to the GPUs (G^k, k ≤ 8) for the least T.

// Branch is one path of a module: its operators, run in order.
type Branch []Op

// branchTime is branch br's forward and backward (3 forwards) for b
// samples on gpu.
func branchTime(br Branch, b int, gpu hw.GPU) units.Time {
	var t units.Time
	for _, o := range br {
		t += 3 * forwardTime(o, b, gpu)
	}
	return t
}

// PlaceBranches is the cheapest assignment of branches to GPUs 0…G−1
// (on[b] is branch b's GPU) for b samples, the module's input of in bytes,
// over links of latency alpha and bandwidth bw, and its critical path T.
func PlaceBranches(branches []Branch, in units.Bytes, b, G int, gpu hw.GPU, alpha units.Time, bw units.Bandwidth) ([]int, units.Time, error) {
	k := len(branches)
	if k == 0 || k > 8 || G < 1 || G > 8 {
		return nil, 0, fmt.Errorf("opgraph: %d branches on %d GPUs; allowed 1..8 each", k, G)
	}
	var best []int
	bestT := units.Time(-1)
	on := make([]int, k)
	for code := 0; ; code++ {
		c := code
		for i := range on {
			on[i], c = c%G, c/G
		}
		if c > 0 {
			break
		}
		if t := placedTime(branches, on, in, b, G, gpu, alpha, bw); bestT < 0 || t < bestT {
			best, bestT = append([]int(nil), on...), t
		}
	}
	return best, bestT, nil
}

// placedTime is the critical path T of the comment above.
func placedTime(branches []Branch, on []int, in units.Bytes, b, G int, gpu hw.GPU, alpha units.Time, bw units.Bandwidth) units.Time {
	per := make([]units.Time, G)
	out := make([]units.Bytes, G)
	for i, br := range branches {
		per[on[i]] += branchTime(br, b, gpu)
		out[on[i]] += outBytes(br[len(br)-1], b)
	}
	var t units.Time
	for g, p := range per {
		if g > 0 && p > 0 {
			p += 2*alpha + bw.TransferTime(in) + bw.TransferTime(out[g])
		}
		t = max(t, p)
	}
	return t
}

// SimulatePlaced plays a placement as a task graph on a server of G gpu:
// the input sent from GPU 0 to each GPU that has branches, each GPU's
// branches back to back (one span each), each remote GPU's outputs sent
// back to GPU 0 together.
func SimulatePlaced(branches []Branch, on []int, in units.Bytes, b, G int, gpu string) (*timeline.Timeline, error) {
	return simulatePlaced(branches, on, in, b, G, hostScenario(Run{GPU: gpu, GPUs: G, Batch: b}))
}

// simulatePlaced is SimulatePlaced on base's cluster.
func simulatePlaced(branches []Branch, on []int, in units.Bytes, b, G int, base scenario.Scenario) (*timeline.Timeline, error) {
	gpu := base.Cluster.GPU
	t, err := topology(base)
	if err != nil {
		return nil, err
	}
	g, err := hw.LookupGPU(gpu)
	if err != nil {
		return nil, err
	}
	tg := taskgraph.New(t, titled(base, "branches placed on "+fmt.Sprint(G)+" "+gpu))
	tg.ConcurrentMessages()
	ch := tg.AddChannel(collective.Schedule{Op: collective.OpPipelineSend, Algorithm: "p2p", Ranks: G}, taskgraph.Identity(G), "pp")
	ready := make([]int, G) // what GPU x's next branch waits for
	for x := range ready {
		ready[x] = -1
		for i := range branches {
			if on[i] == x && x > 0 && ready[x] < 0 {
				ready[x] = tg.AddMessage(ch, collective.Transfer{Src: 0, Dst: x, Bytes: in, Phase: collective.PhasePipeline})
			}
		}
	}
	out := make([]units.Bytes, G)
	for i, br := range branches {
		x := on[i]
		ready[x] = tg.AddCompute(timeline.Span{GPU: x, Kind: timeline.Forward, Label: "branch", Stage: i}, branchTime(br, b, g), deps(ready[x])...)
		out[x] += outBytes(br[len(br)-1], b)
	}
	for x := 1; x < G; x++ {
		if out[x] > 0 {
			tg.AddMessage(ch, collective.Transfer{Src: x, Dst: 0, Bytes: out[x], Phase: collective.PhasePipeline}, ready[x])
		}
	}
	return tg.Finish("opgraph")
}

// pathCost is α and bandwidth between GPUs 0 and 1 of the server of r.
func pathCost(r Run) (units.Time, units.Bandwidth, error) {
	t, err := topology(hostScenario(r))
	if err != nil {
		return 0, 0, err
	}
	return topo.NewRouter(t).PathCost(0, 1)
}
