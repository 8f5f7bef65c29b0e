package plan

import (
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/workload"
)

// schedule is one pipeline schedule the planner tries.
type schedule struct {
	name string
	v    int // virtual stages (the scenario's virtual_stages)
}

// schedules are the pipeline schedules tried when pp > 1: Megatron's
// 1F1B and its interleaved form with two, four and eight chunks per
// device (Narayanan et al. 2021), the zero-bubble schedules of Qi et al.
// 2024 that keep 1F1B's memory (ZB-H1), trade memory for a smaller bubble
// (ZB-H2) or split the model in a V (ZB-V), and DeepSeek's DualPipeV
// (DeepSeek-AI 2024, the V-shaped half of DualPipe).
var schedules = []schedule{{"1f1b", 1}, {"interleaved", 2}, {"interleaved", 4}, {"interleaved", 8},
	{"zb-h1", 1}, {"zb-h2", 1}, {"zb-v", 1}, {"dualpipev", 1}}

// recomputes are the activation-recomputation policies, cheapest first.
var recomputes = []workload.Recompute{workload.RecomputeNone, workload.RecomputeSelective, workload.RecomputeFull}

// enumerate lists every plan of the search space in a fixed order, each as
// a scenario. On a TPU slice a plan is a mesh (parallel.mesh: model = tp,
// seq = cp, and data, or fsdp for ZeRO-3, = dp; no pipeline), which the
// run lays on the torus innermost first, so the search over tp and cp is
// one over the mesh's axes and which torus axes each takes. It applies
// only the rules that follow from the shapes (divisibility, tp within a
// server, a schedule's own rules), so that what it returns is worth
// validating; the rest is left to screening.
func enumerate(c Config, m workload.Model) []Plan {
	n := c.GPUs()
	base := c.scenario()
	var out []Plan
	slice := c.Cluster.Topology != ""
	for _, tp := range divisors(n) {
		if tp > c.Cluster.GPUsPerNode && !c.CrossNodeTP && !slice {
			continue // tensor parallelism stays on a server's NVLink
		}
		for _, cp := range divisors(n / tp) {
			for _, pp := range divisors(n / (tp * cp)) {
				if pp > m.Layers || (slice && pp > 1) {
					continue // each pipeline stage needs a layer
				}
				dp := n / (tp * cp * pp)
				lays := []string{""}
				if slice {
					lays = meshLayouts(base, tp, cp, dp, c.Exhaustive)
				}
				for _, e := range expertDegrees(m, dp, tp) {
					for b := 1; b <= c.maxMicroBatch() && c.GlobalBatch%(dp*b) == 0; b *= 2 {
						mb := c.GlobalBatch / (dp * b)
						out = appendSchedules(out, base, m, degrees{dp, tp, pp, cp, e.ep, e.etp, b, mb}, lays, c.ZeROLayers)
					}
				}
			}
		}
	}
	return out
}

// degrees are a plan's layout and batch split.
type degrees struct {
	dp, tp, pp, cp, ep int
	etp                int // 0: tp (a dense model, or Megatron-Core's default)
	b, m               int // micro-batch size and microbatches per replica
}

// appendSchedules adds the plans of one layout: every schedule, ZeRO stage
// and recomputation policy that applies.
func appendSchedules(out []Plan, base scenario.Scenario, m workload.Model, d degrees, lays []string, perLayer bool) []Plan {
	scheds := schedules
	if d.pp == 1 {
		scheds = schedules[:1] // one stage: every schedule is the same
	}
	for _, sc := range scheds {
		if !scheduleFits(sc, d, m) {
			continue
		}
		vs := variants(sc, d, m)
		starts := make([]int, len(vs))
		for i, v := range vs {
			starts[i] = len(out)
			out = appendStates(out, base, d, sc, v, lays, perLayer, m.Layers)
			if v.overlap { // the same plans, in the same order, as a variant without
				for j, tw := starts[i], starts[i-len(vs)/2]; j < len(out); j, tw = j+1, tw+1 {
					out[j].twinIdx = tw + 1
				}
			}
		}
	}
	return out
}

// variant is a plan's choices beside its layout and schedule: the layer
// split and whether tensor-parallel communication overlaps its GEMMs.
type variant struct {
	fewer   int  // parallel.first_last_fewer: 0, or 1 (Llama 3's lighter first and last stages)
	overlap bool // parallel.tp_comm_overlap
}

// variants lists a layout's variants: the equal layer split, and with more
// than one model stage Llama 3's split, one layer fewer on the first and
// last model stages (which also hold the embedding and the output head;
// Dubey et al. 2024, §3.3.2), when the model's layers leave every other
// stage a layer; each without and, when tp > 1, with tensor-parallel
// communication overlap (Megatron-Core's tp_comm_overlap). Neither is
// dominated in the simulator: the uneven split moves memory and work
// between stages, and overlap hides communication but slows the GEMMs it
// runs beside (optime.go's interference), so each is searched.
func variants(sc schedule, d degrees, m workload.Model) []variant {
	out := []variant{{}}
	stages := d.pp * chunksOf(sc)
	if stages > 1 && (m.Layers+2)/stages >= 2 {
		out = append(out, variant{fewer: 1})
	}
	if d.tp > 1 {
		for _, v := range out {
			out = append(out, variant{v.fewer, true})
		}
	}
	return out
}

// chunksOf is the model chunks per device schedule sc runs.
func chunksOf(sc schedule) int {
	if sc.name == "zb-v" || sc.name == "dualpipev" {
		return 2
	}
	return sc.v
}

// appendStates adds a layout's plans under one schedule and variant: every
// ZeRO stage and recomputation policy that applies, and on a TPU slice
// every mesh layout of lays (meshLayouts; [""] off a slice).
func appendStates(out []Plan, base scenario.Scenario, d degrees, sc schedule, v variant, lays []string, perLayer bool, layers int) []Plan {
	zeros := []int{0, 1, 2, 3}
	if d.dp == 1 {
		zeros = zeros[:1] // ZeRO shards over data-parallel replicas
	}
	for _, z := range zeros {
		for _, r := range recomputes {
			s := base // the defaults of every other plan field (order, partition)
			p := &s.Parallel
			p.DP, p.TP, p.PP, p.CP, p.EP, p.ETP, p.ZeRO = d.dp, d.tp, d.pp, d.cp, d.ep, d.etp, z
			p.Schedule, p.VirtualStages, p.Microbatches, p.MicroBatchSize = sc.name, sc.v, d.m, d.b
			p.SequenceParallel, p.Recompute = d.tp > 1, string(r)
			p.LayersPerStage = nil // a list fits one pp·v; first_last_fewer, a rule, applies to any
			p.FirstLastFewer, p.TPCommOverlap = v.fewer, v.overlap
			p.ZeROLayers = 0
			for _, lay := range lays {
				if s.Cluster.Topology != "" {
					p.Mesh = scenario.Mesh{Data: d.dp, Seq: d.cp, Model: d.tp, Layout: lay}
					if z == 3 {
						p.Mesh.Data, p.Mesh.FSDP = 0, d.dp
					}
				}
				p.ZeROLayers = 0
				out = append(out, Plan{Scenario: s, Family: family(s.Parallel)})
				if z == 3 && perLayer && perLayerSearch {
					for _, k := range zeroLayerChoices(layers) {
						p.ZeROLayers = k
						out = append(out, Plan{Scenario: s, Family: family(s.Parallel)})
					}
				}
			}
		}
	}
	return out
}

// scheduleFits applies a schedule's own rules (pipeline.Check) and the
// model's: every model stage, pp·v of them, needs a layer.
func scheduleFits(sc schedule, d degrees, m workload.Model) bool {
	chunks := sc.v
	switch sc.name {
	case "interleaved":
		if d.m%d.pp != 0 {
			return false
		}
	case "zb-v", "dualpipev":
		chunks = 2
		if d.m < 2*d.pp {
			return false
		}
	}
	return d.pp*chunks <= m.Layers && d.m <= 4096
}

// expert is one layout of a mixture's experts.
type expert struct{ ep, etp int }

// expertDegrees lists the expert layouts of a model on dp replicas of tp
// GPUs: none for a dense model; for a mixture of experts every expert
// tensor-parallel degree etp dividing tp and the expert width (tp itself
// written 0, the default), and with it every expert-parallel degree ep
// dividing the experts such that ep·etp divides tp·dp (ep over the
// data-parallel ranks, and with etp < tp over tensor-parallel ones too).
func expertDegrees(m workload.Model, dp, tp int) []expert {
	if !m.IsMoE() {
		return []expert{{1, 0}}
	}
	var out []expert
	for _, etp := range divisors(tp) {
		if m.ExpertWidth()%etp != 0 {
			continue
		}
		for _, e := range divisors(tp * dp / etp) {
			if m.MoE.Experts%e != 0 || (etp == tp && dp%e != 0) {
				continue
			}
			x := expert{e, etp}
			if etp == tp {
				x.etp = 0
			}
			out = append(out, x)
		}
	}
	return out
}

// divisors lists n's divisors in increasing order.
func divisors(n int) []int {
	var out []int
	for d := 1; d <= n; d++ {
		if n%d == 0 {
			out = append(out, d)
		}
	}
	return out
}

// family names the dimensions a plan splits along, innermost first, e.g.
// "tp·pp·dp", or "single" for none: the strategy family the scatter colours.
func family(p scenario.Parallel) string {
	var dims []string
	for _, d := range []struct {
		name string
		v    int
	}{{"tp", p.TP}, {"cp", p.CP}, {"ep", p.EP}, {"pp", p.PP}, {"dp", p.DP}} {
		if d.v > 1 {
			dims = append(dims, d.name)
		}
	}
	if len(dims) == 0 {
		return "single"
	}
	return strings.Join(dims, "·")
}

// zeroLayerChoices are the per-layer sharding splits Config.ZeROLayers
// tries on a model of L layers: ZeRO-3 on the first k = jL/8 layers
// (rounded; j = 1..7, distinct, 1 ≤ k < L) and ZeRO-2 on the rest. A
// grid rather than every k: the plan's memory falls and its time rises
// almost linearly in k (osdp.go), so the best k under a memory limit is
// the fewest sharded layers that fit, found here within L/8.
func zeroLayerChoices(L int) []int {
	var ks []int
	for j := 1; j < 8; j++ {
		k := (j*L + 4) / 8
		if k >= 1 && k < L && (len(ks) == 0 || ks[len(ks)-1] != k) {
			ks = append(ks, k)
		}
	}
	return ks
}
