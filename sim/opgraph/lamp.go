//go:build !js

package opgraph

import (
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// LAMP's automated model parallelism (Zhu et al. 2020, "LAMP: Large Deep
// Nets with Automated Model Parallelism for Image Segmentation", MICCAI):
// a 3-D U-Net too large for one GPU, on a whole image rather than crops,
// split into GPipe stages. A U-Net has no cut point without an open skip
// connection, so a cut falls inside skip spans: each stage boundary then
// carries, besides the main activation, every skip tensor produced before
// it and read after it. As torchgpipe's skip portals do (Kim et al. 2020),
// each such tensor goes straight from the stage that made it to the stage
// that reads it (one message a microbatch forward, its gradient back),
// priced on the server's links.
//
// Memory of stage s over operators lo..hi, m microbatches of b samples
// (stageMemory):
//
//	M_s = 16·P_s + m·(Σ_{i=lo..hi} out_i(b) + Σ_{j received} out_j(b))
//
// P_s the stage's parameters at mixed-precision Adam's 2 + 2 + 12 bytes
// (Rajbhandari et al. 2020, ZeRO), every operator's bf16 output stashed
// for its backward (GPipe without re-materialization, every microbatch in
// flight), and every tensor received from an earlier stage (the main
// activation and the skips) held for the backward too.
//
// The partition (lampStages) is contiguous, one stage a GPU, and chosen
// by dynamic programming over every cut: among the partitions whose
// stages all fit the GPU's memory, the one whose slowest stage's forward
// is least; when none fits, the one whose largest stage is least (which
// Run.check then refuses, naming graph.volume). With free links the
// iteration is GPipe's flow shop of identical microbatches,
//
//	T = 3·(Σ_s f_s + (m − 1)·max_s f_s)
//
// for stage forwards f_s, backward twice the forward (TestLAMPClosedForm).
// Not modelled: re-materialization (GPipe's and LAMP's option), the
// image's own bytes, and LAMP's sliding-window inference comparison.

// stateBytes is mixed-precision Adam's model state a parameter (ZeRO's
// 2 + 2 + 12).
const stateBytes = 16

// hasSkips says whether g has a concatenation, so a skip connection that
// model parallelism must carry across stages (the U-Net).
func hasSkips(g Graph) bool {
	for _, o := range g.Ops {
		if o.Kind == Concat {
			return true
		}
	}
	return false
}

// cutCount is how many stages less one g can be cut into: at its cut
// points (cuts), or after any operator when skips may cross stages.
func cutCount(g Graph) int {
	if hasSkips(g) {
		return len(g.Ops) - 1
	}
	return len(cuts(g))
}

// received is the source operators before lo that operators lo..hi read.
func received(g Graph, lo, hi int) []int {
	var src []int
	for _, o := range g.Ops[lo : hi+1] {
		for _, j := range o.Inputs {
			if j < lo && !contains(src, j) {
				src = append(src, j)
			}
		}
	}
	return src
}

// contains says whether xs holds x.
func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// stageMemory is M_s of operators lo..hi (see above).
func stageMemory(g Graph, lo, hi, b, m int) units.Bytes {
	var p int64
	var act units.Bytes
	for _, o := range g.Ops[lo : hi+1] {
		p += o.Params()
		act += outBytes(o, b)
	}
	for _, j := range received(g, lo, hi) {
		act += outBytes(g.Ops[j], b)
	}
	return units.Bytes(stateBytes*p) + units.Bytes(m)*act
}

// lampStages cuts g into n stages (see above) for m microbatches of b
// samples on gpu and returns each stage's last operator.
func lampStages(g Graph, n, b, m int, gpu hw.GPU) []int {
	N := len(g.Ops)
	pre := make([]units.Time, N+1)
	for i, o := range g.Ops {
		pre[i+1] = pre[i] + forwardTime(o, b, gpu)
	}
	mem := func(lo, hi int) float64 { return float64(stageMemory(g, lo, hi, b, m)) }
	ends := partition(N, n, mem, func(int, int) bool { return true })
	if fits := func(lo, hi int) bool { return mem(lo, hi) <= float64(gpu.HBM) }; allFit(ends, fits) {
		ends = partition(N, n, func(lo, hi int) float64 { return float64(pre[hi+1] - pre[lo]) }, fits)
	}
	return ends
}

// allFit says whether every stage of ends passes ok.
func allFit(ends []int, ok func(lo, hi int) bool) bool {
	for i, e := range ends {
		if !ok(stageStart(ends, i), e) {
			return false
		}
	}
	return true
}

// stageStart is stage i's first operator.
func stageStart(ends []int, i int) int {
	if i == 0 {
		return 0
	}
	return ends[i-1] + 1
}

// partition splits operators 0..N−1 into n non-empty contiguous stages,
// each passing ok, so that the largest cost is least (dynamic programming
// over every cut, O(N²·n) costs); it returns each stage's last operator.
func partition(N, n int, cost func(lo, hi int) float64, ok func(lo, hi int) bool) []int {
	best := make([][]float64, n+1) // best[k][i]: the first i ops in k stages
	from := make([][]int, n+1)
	for k := range best {
		best[k], from[k] = make([]float64, N+1), make([]int, N+1)
		for i := range best[k] {
			best[k][i] = -1
		}
	}
	best[0][0] = 0
	for k := 1; k <= n; k++ {
		for i := k; i <= N; i++ {
			for j := k - 1; j < i; j++ {
				if best[k-1][j] < 0 || !ok(j, i-1) {
					continue
				}
				if c := max(best[k-1][j], cost(j, i-1)); best[k][i] < 0 || c < best[k][i] {
					best[k][i], from[k][i] = c, j
				}
			}
		}
	}
	ends := make([]int, n)
	for k, i := n, N; k > 0; k-- {
		ends[k-1] = i - 1
		i = from[k][i]
	}
	return ends
}

// checkFit refuses a skip graph (the U-Net) whose stages do not fit the
// GPU, naming graph.volume; a data split is one stage of the whole graph
// on each GPU's share of the batch.
func (r Run) checkFit(g Graph, gpu hw.GPU) error {
	if !hasSkips(g) {
		return nil
	}
	n, b, m := 1, r.Batch/r.GPUs, 1
	if r.Split == Model {
		n, b, m = r.GPUs, r.Batch/r.Microbatches, r.Microbatches
	}
	ends := lampStages(g, n, b, m, gpu)
	for i, e := range ends {
		if need := stageMemory(g, stageStart(ends, i), e, b, m); need > gpu.HBM {
			return fmt.Errorf("graph.volume: is %d; stage %d of %d needs %.1f GiB, more than the %s's %.0f GiB: lower graph.volume, graph.channels or graph.batch, or use more GPUs",
				g.Ops[0].H, i, n, gib(need), r.GPU, gib(gpu.HBM))
		}
	}
	return nil
}

// gib is b in GiB.
func gib(b units.Bytes) float64 { return float64(b) / float64(units.GiB) }

// simulateLAMP runs GPipe over lampStages (Model split of a skip graph):
// every microbatch's forward through the stages, each stage sending every
// tensor a later stage reads straight to it, then the backwards in
// reverse order of microbatches, each twice its forward, each sending its
// gradients back the same way.
func simulateLAMP(g Graph, r Run, gpu hw.GPU, base scenario.Scenario) (*timeline.Timeline, error) {
	n, m := r.GPUs, r.Microbatches
	b := r.Batch / m
	ends := lampStages(g, n, b, m, gpu)
	bytes := crossBytes(g, ends, b)
	h, err := newBuilder(base, ", LAMP's model split", g, r)
	if err != nil {
		return nil, err
	}
	pending := make([][]msg, m) // the messages microbatch j's next spans wait for
	for p := range 2 * n {
		i, k, label, mult := p, timeline.Forward, "F", units.Time(1)
		if p >= n {
			i, k, label, mult = 2*n-1-p, timeline.Backward, "B", 2
		}
		var f units.Time
		for _, o := range g.Ops[stageStart(ends, i) : ends[i]+1] {
			f += forwardTime(o, b, gpu)
		}
		for jj := range m {
			j := jj
			if p >= n {
				j = m - 1 - jj
			}
			var wait []int
			rest := pending[j][:0:0]
			for _, w := range pending[j] {
				if w.dst == i {
					wait = append(wait, w.id)
				} else {
					rest = append(rest, w)
				}
			}
			x := h.run(i, k, label, i, j, mult*f, wait...)
			for t := range n {
				if by := bytes[min(i, t)][max(i, t)]; by > 0 && (p < n) == (t > i) {
					rest = append(rest, msg{t, h.send(i, t, by, x)})
				}
			}
			pending[j] = rest
		}
	}
	return h.tg.Finish("opgraph")
}

// msg is a message to stage dst.
type msg struct{ dst, id int }

// crossBytes is, for stages s < t of ends, the bf16 bytes of b samples
// that stage s sends stage t forward (and t sends s back): the outputs of
// s's operators that t's operators read, each once.
func crossBytes(g Graph, ends []int, b int) [][]units.Bytes {
	n := len(ends)
	out := make([][]units.Bytes, n)
	stage := make([]int, len(g.Ops))
	for i := range out {
		out[i] = make([]units.Bytes, n)
		for o := stageStart(ends, i); o <= ends[i]; o++ {
			stage[o] = i
		}
	}
	for t := range n {
		for _, j := range received(g, stageStart(ends, t), ends[t]) {
			out[stage[j]][t] += outBytes(g.Ops[j], b)
		}
	}
	return out
}
