package inference

import (
	"fmt"
	"math"

	"paraplay/sim/budget"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// Work bounds a serving run. Its steps are S = output × microbatches ×
// dp (a prefill and output−1 decodes of each microbatch on each replica).
// With a pipeline of pp stages of tp GPUs, each step puts on every stage a
// compute op (a compute span per GPU, a communication span with tp > 1,
// a host span when host time is synchronous: h ≤ 3 spans), sends tp
// messages to the next stage, samples (tp spans on the GPU, or one on a
// CPU lane after a copy) and sends the token to stage 0's tp ranks:
//
//	spans     ≤ S·(h·pp·tp + sample)
//	transfers ≤ S·((pp−1)·tp + copy + tp)   (tp − 1 tokens on one stage)
//
// With shared weights (one GPU a replica, layer by layer) the stages are
// the model's L layers, each borrowing at most one layer by message:
// spans ≤ S·(3L + 2), transfers ≤ S·(2L + 2). A scenario whose costs
// would overflow the clock is refused (clockFits).
func (Strategy) Work(s scenario.Scenario) budget.Work {
	if err := clockFits(s); err != nil {
		return budget.Work{Refused: err}
	}
	in, p := SettingsOf(&s), s.Parallel
	steps := float64(max(in.Output, 1) * max(MicrobatchCount(&s), 1) * max(p.DP, 1))
	pp, tp := float64(max(p.PP, 1)), float64(max(p.TP, 1))
	why := fmt.Sprintf("%d inference.output × %d microbatches × %d replicas", in.Output, MicrobatchCount(&s), p.DP)
	fix := "lower inference.output or inference.microbatches"
	perStage := 1.0 // a compute span on each GPU, a communication span with tp > 1, a host span
	if tp > 1 {
		perStage++
	}
	if in.HostTime > 0 && !in.AsyncHost {
		perStage++
	}
	sample, copies := 0.0, 0.0 // sampling spans, and the logits' copy to a CPU lane
	switch {
	case in.Sampling == SampleCPU:
		sample, copies = 1, 1
	case in.SampleTime > 0:
		sample = tp
	}
	tokens := tp // the token to stage 0's ranks, but not to the GPU that sampled it
	if pp == 1 && copies == 0 {
		tokens = tp - 1
	}
	sp, tr := steps*(perStage*pp*tp+sample), steps*((pp-1)*tp+copies+tokens)
	if in.SharedWeights != SharedNone {
		layers := 1.0
		if m, err := s.Model.Resolve(); err == nil {
			layers = float64(m.Layers)
		}
		sp, tr = steps*(3*layers+2), steps*(2*layers+2)
	}
	spans := budget.Count{N: sp, Why: why + " × stages", Field: "inference.output", Fix: fix}
	transfers := budget.Count{N: tr, Why: why + " × stages", Field: "inference.output", Fix: fix}
	// Each op keeps its metadata and its GPUs' KV-cache points: two ops'
	// worth of memory a span.
	w := budget.Of(budget.Items{Spans: spans, Transfers: transfers, Ops: 2 * (sp + tr), GPUs: p.DP*p.PP*p.TP + p.DP})
	if s.Training.Efficiency == 0 {
		w.Memory.N += opModelSetup(in, p.PP)
	}
	return w
}

// OpModelShapeBytes bounds what the op model allocates to price one new
// chunk of tokens on one kind of stage (the layer's op list, the
// embedding's, their prices): about 67 KB measured
// (TestOpModelShapeBytes); later steps of the same shape reuse it.
const OpModelShapeBytes = 80 << 10

// opModelSetup bounds the op model's one-off allocations in a run: at most
// 4 kinds of stage (first, last, and the middle stages' two layer counts;
// 3 under shared weights: the first, middle and last layer), each priced
// at up to 6 token counts (two microbatch sizes, each with a prefill
// chunk, its remainder and a decode step).
func opModelSetup(in Settings, pp int) float64 {
	kinds := min(max(pp, 1), 4)
	if in.SharedWeights != SharedNone {
		kinds = 3
	}
	return float64(kinds * 6 * OpModelShapeBytes)
}

// maxServe is the longest serving run the clock may hold: a sixteenth of
// units.MaxTime (about 18 years), so sums of op times cannot overflow.
const maxServe = float64(units.MaxTime) / 16

// clockFits refuses a scenario whose op costs would overflow the clock
// once they become times: the whole model on one GPU (tp 1, every layer),
// a replica's prefill and output decodes of all its requests, each
// microbatch priced at the full batch,
//
//	microbatches · (prefill(requests, prompt) + output · decode(requests, prompt + output))
//
// bounds a replica's serial work (each term the larger of the roofline's
// price and, without training.efficiency, the op model's), and must stay
// under maxServe. Roofline costs are compared in floating point, before
// Round saturates them.
func clockFits(s scenario.Scenario) error {
	m, err := s.Model.Resolve()
	if err != nil {
		return nil // Check reports it
	}
	gpu, err := hw.LookupGPU(s.Cluster.GPU)
	if err != nil {
		return nil
	}
	in := SettingsOf(&s)
	st := Stage{Model: m, Layers: m.Layers, First: true, Last: true, TP: 1, GPU: gpu, Efficiency: s.Training.Efficiency}
	eff := st.Efficiency
	if eff == 0 {
		eff = gpu.Efficiency
	}
	secs := func(c Cost) float64 {
		return max(float64(c.Bytes)/float64(gpu.HBMBandwidth), c.FLOPs/(gpu.PeakFLOPS*eff))
	}
	pre, dec := secs(st.Prefill(in.Requests, in.Prompt)), secs(st.Decode(in.Requests, in.Prompt+in.Output))
	if o, err := NewOpModel(gpu); err == nil && st.Efficiency == 0 {
		// The op model prices the run: its kernels' sums stay far below
		// the clock's range wherever the roofline's do, but bound it by
		// its own prices all the same.
		p, errP := o.Prefill(st, in.Requests, in.Prompt)
		d, errD := o.Decode(st, in.Requests, in.Prompt+in.Output)
		if errP == nil && errD == nil {
			pre, dec = max(pre, p.Time.Seconds()), max(dec, d.Time.Seconds())
		}
	}
	total := float64(max(MicrobatchCount(&s), 1)) * (pre + float64(in.Output)*dec) * 1e9
	if total <= maxServe && !math.IsNaN(total) {
		return nil
	}
	msg := fmt.Sprintf("serving would take up to %.2g s on a replica (efficiency %g); the clock holds %.2g s (18 years)", total/1e9, eff, maxServe/1e9)
	if s.Training.Efficiency > 0 && s.Training.Efficiency < 0.01 {
		return &scenario.FieldError{Field: "training.efficiency", Msg: fmt.Sprintf("is %g: %s; raise training.efficiency", s.Training.Efficiency, msg)}
	}
	return &scenario.FieldError{Field: "model", Msg: msg + "; use a smaller model, fewer inference.requests or a shorter inference.prompt"}
}
