//go:build !js

package training

import (
	"fmt"
	"slices"

	"paraplay/sim/moe"
	"paraplay/sim/parallel"
	"paraplay/sim/timeline"
)

// moeStats gathers a routing's figures over the iteration's MoE layers
// (one microbatch of one expert-parallel group each; the others route the
// same way).
type moeStats struct {
	// layers is how many layers were routed; copies and dropped their
	// token copies and those over capacity.
	layers          int
	copies, dropped float64
	// expertPeak and gpuPeak sum each layer's busiest expert and GPU over
	// the mean; worstExpert is the largest of the former.
	expertPeak, gpuPeak, worstExpert float64
	// load[j] is the copies expert-parallel index j computed in all.
	load []float64
	// nodes sums each layer's nodes per token; spans is how many nodes
	// one group spans.
	nodes float64
	spans int
}

func (s *moeStats) start(ep int, lay moe.Layout) {
	s.load = make([]float64, ep)
	s.spans = (ep + lay.PerNode - 1) / max(lay.PerNode, 1)
}

func (s *moeStats) add(l moe.Layer) {
	s.layers++
	s.copies += l.Copies
	s.dropped += l.Dropped
	e := slices.Max(l.Share) * float64(len(l.Share))
	s.expertPeak += e
	s.worstExpert = max(s.worstExpert, e)
	var sum float64
	for j, c := range l.Load {
		s.load[j] += c
		sum += c
	}
	if sum > 0 {
		s.gpuPeak += slices.Max(l.Load) * float64(len(l.Load)) / sum
	}
	s.nodes += l.NodesPerToken
}

// MoE is the record a mixture of experts' training run leaves in the
// timeline's Extra["moe"]: how its router spread the tokens. Its parts
// are embedded, so their fields read as the record's own (and JSON
// flattens them).
type MoE struct {
	MoEShape
	// Copies and Dropped are the token copies the iteration routed (top_k
	// per token and MoE layer) and those a capacity factor dropped.
	Copies  float64 `json:"token_copies"`
	Dropped float64 `json:"dropped_copies"`
	MoELoad
	// Steps is how many iterations the record covers.
	Steps int `json:"steps"`
	// ExposedEP is the mean time per GPU spent in the expert-parallel
	// all-to-alls and waiting for the group's slowest GPU, in seconds
	// (set by Report, from the summary).
	ExposedEP float64 `json:"exposed_ep_s"`
}

// MoEShape is what a MoE record routed over.
type MoEShape struct {
	// Experts, TopK and Shared are the routed experts, each token's
	// choices and the shared experts; EP and ETP the expert-parallel and
	// expert tensor-parallel degrees.
	Experts, TopK, Shared, EP, ETP int `json:",omitempty"`
	// Routing names the router's skew and the capacity policy.
	Routing string `json:"routing"`
}

// MoELoad is how a MoE record's copies landed.
type MoELoad struct {
	// ExpertMaxMean is the busiest expert's load over the mean, averaged
	// over the layers; WorstExpert its largest; GPUMaxMean the same for
	// the GPUs of an expert-parallel group.
	ExpertMaxMean float64 `json:"expert_load_max_mean"`
	WorstExpert   float64 `json:"expert_load_max_mean_worst"`
	GPUMaxMean    float64 `json:"gpu_load_max_mean"`
	// Busiest is the expert-parallel index that computed the most copies
	// over the iteration, and BusiestGPUs the GPUs at that index.
	Busiest     int   `json:"busiest_ep_index"`
	BusiestGPUs []int `json:"busiest_gpus"`
	// NodesPerToken is the mean number of nodes a token's copies reach,
	// of Nodes that an expert-parallel group spans.
	NodesPerToken float64 `json:"nodes_per_token"`
	Nodes         int     `json:"nodes"`
	// Load is the copies each expert-parallel index computed.
	Load []float64 `json:"copies_by_ep_index"`
}

// Check reports a record that contradicts itself.
func (r MoE) Check(*timeline.Timeline) []error {
	if r.Dropped < 0 || r.Dropped > r.Copies {
		return []error{fmt.Errorf("dropped %v of %v token copies", r.Dropped, r.Copies)}
	}
	return nil
}

// Report is the record with the run's exposed expert-parallel time.
func (r MoE) Report(_ *timeline.Timeline, s *timeline.Summary) timeline.Report {
	r.ExposedEP = s.ExposedBy["ep"]
	return r
}

// record leaves the routing's record in tl.
func (x *routed) record(tl *timeline.Timeline, tr *iteration) {
	s := x.stats
	p, m := tr.par, tr.model
	groups := float64(p.TP*p.CP*p.DP) / float64(p.EP) * float64(p.Microbatches)
	rec := MoE{MoEShape: MoEShape{Experts: m.MoE.Experts, TopK: m.MoE.TopK, Shared: m.MoE.SharedExperts, EP: p.EP, ETP: p.Plan().ExpertTP(),
		Routing: routingName(tr.s.Model.MoE.Routing)}, Copies: s.copies * groups, Dropped: s.dropped * groups}
	rec.Nodes = s.spans
	if n := float64(max(s.layers, 1)); s.layers > 0 {
		rec.ExpertMaxMean, rec.GPUMaxMean, rec.NodesPerToken, rec.WorstExpert = s.expertPeak/n, s.gpuPeak/n, s.nodes/n, s.worstExpert
	}
	rec.Load, rec.Steps = slices.Clone(s.load), 1
	for j := range rec.Load {
		rec.Load[j] *= groups
	}
	rec.busiest(tr.plan, len(tr.topo.GPUs))
	if tl.Extra == nil {
		tl.Extra = map[string]timeline.Record{}
	}
	tl.Extra["moe"] = rec
}

// busiest finds the expert-parallel index with the most copies and its
// GPUs of the n.
func (r *MoE) busiest(plan parallel.Plan, n int) {
	r.Busiest, r.BusiestGPUs = slices.Index(r.Load, slices.Max(r.Load)), nil
	for g := range n {
		if _, ep, _ := plan.ExpertCoord(g); ep == r.Busiest {
			r.BusiestGPUs = append(r.BusiestGPUs, g)
		}
	}
}

// mergeMoE adds iteration src's routing record to a run's dst: copies,
// drops and loads summed, the ratios averaged over the iterations.
func mergeMoE(dst, src *timeline.Timeline, plan parallel.Plan) {
	s, ok := src.Extra["moe"].(MoE)
	if !ok {
		return
	}
	d, ok := dst.Extra["moe"].(MoE)
	if !ok {
		if dst.Extra == nil {
			dst.Extra = map[string]timeline.Record{}
		}
		s.Load = slices.Clone(s.Load)
		dst.Extra["moe"] = s
		return
	}
	w := float64(d.Steps)
	avg := func(a, b float64) float64 { return (a*w + b) / (w + 1) }
	d.ExpertMaxMean, d.GPUMaxMean, d.NodesPerToken = avg(d.ExpertMaxMean, s.ExpertMaxMean), avg(d.GPUMaxMean, s.GPUMaxMean), avg(d.NodesPerToken, s.NodesPerToken)
	d.WorstExpert = max(d.WorstExpert, s.WorstExpert)
	d.Copies, d.Dropped, d.Steps = d.Copies+s.Copies, d.Dropped+s.Dropped, d.Steps+1
	for j := range d.Load {
		d.Load[j] += s.Load[j]
	}
	d.busiest(plan, len(dst.GPUs))
	dst.Extra["moe"] = d
}
