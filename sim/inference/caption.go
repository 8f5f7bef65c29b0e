//go:build !js

package inference

import (
	"fmt"
	"strings"

	"paraplay/sim/gemm"
	"paraplay/sim/hw"
	"paraplay/sim/operators"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Caption is the caption of a serving demo: the run's headline
// (tokens/s, time to first token, time per output token), and three
// figures measured on the run beside the closed forms they follow:
//
//   - the KV cache per token on GPU 0, from the cache it holds at the end
//     over the tokens written (requests · (prompt + output − 1)), beside
//     2 · layers · kv_heads · head_dim · 2 B / tp;
//   - the first decode step of stage 0 (a pipeline without tensor
//     parallelism), beside its floor under the op model: (weights +
//     requests · context · KV per token) / (η · HBM bandwidth), or the
//     FLOPs at the GEMM ceiling when larger, plus kernels × launch
//     (opStepCheck); under training.efficiency, beside the roofline's
//     memory term over the datasheet bandwidth, or its compute term
//     2 · P · requests / (peak · efficiency) when that is larger;
//   - under shared weights, the HBM a GPU frees, beside
//     (layers − owned − buffer) · one layer's weights.
//
// The formulas are computed here from the model's published shapes, the
// GPU preset and sim/gemm's η and ceiling, not through this package's cost
// model (model.go, opmodel.go), so
// the caption checks the simulator rather than repeating it. The bubbles by kind, the KV room
// and any OOM follow.
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	is, in := sum.Inference, SettingsOf(&s)
	m, err := s.Model.Resolve()
	if err != nil {
		return nil, err
	}
	gpu, err := hw.LookupGPU(s.Cluster.GPU)
	if err != nil {
		return nil, err
	}
	parts := []strategy.Part{strategy.Figure("run {}", strategy.Nanos(sum.Iteration)),
		strategy.Figure("{} tokens/s, TTFT {}, TPOT {}", strategy.Value{V: is.TokensPerSecond, Unit: strategy.Count}, strategy.Nanos(is.TTFT), strategy.Nanos(is.TPOT))}
	p := s.Parallel
	layers0 := m.Layers
	if in.SharedWeights == SharedNone {
		layers0 = (m.Layers + p.PP - 1) / p.PP // stage 0 takes the remainder
	}
	tp := p.TP
	if in.SharedWeights != SharedNone {
		tp = 1
	}
	perToken := units.Bytes(2 * layers0 * m.KVHeadCount() * (m.Hidden / m.Heads) * 2 / tp)
	tokens := units.Bytes(in.Requests * (in.Prompt + in.Output - 1))
	simulated := tl.Memory[0].KVAt(tl.End) / tokens
	parts = append(parts, strategy.Compare(strategy.Check{Name: "KV cache per token", Formula: "2·layers·kv_heads·head_dim·2 B/tp",
		Source: "keys and values of every layer, bf16, split over tp", Tolerance: 0},
		"KV cache simulated {} per token on GPU 0; 2·layers·kv_heads·head_dim·2 B/tp = {}", float64(simulated), float64(perToken), strategy.KiB))
	if step, ok := decodeStepCheck(s, tl, m, gpu, layers0, perToken); ok {
		parts = append(parts, step)
	}
	if in.SharedWeights != SharedNone {
		parts = append(parts, sharedWeightsCheck(s, tl, m))
	}
	var bubbles []string
	var shares []strategy.Value
	for _, k := range []string{timeline.BubbleImbalance, timeline.BubbleIntraStage, timeline.BubbleInterStage} {
		bubbles = append(bubbles, k+" {}")
		shares = append(shares, strategy.Value{V: is.BubbleShare[k], Unit: strategy.Percent})
	}
	parts = append(parts, strategy.Figure("bubbles "+strings.Join(bubbles, ", "), shares...))
	return append(parts, kvRoom(sum, is, gpu)), nil
}

// sharedWeightsCheck is the HBM GPU 0 frees under shared weights beside
// (layers − owned − buffer) · one layer's weights.
func sharedWeightsCheck(s scenario.Scenario, tl *timeline.Timeline, m workload.Model) strategy.Part {
	p, in := s.Parallel, SettingsOf(&s)
	owned := m.Layers / p.DP // GPU 0 owns ⌈L/d⌉
	if m.Layers%p.DP != 0 {
		owned++
	}
	buffer := 0
	if in.SharedWeights == SharedFetch {
		buffer = 2
	}
	layer := units.Bytes(workload.Params(m).PerLayer * 2)
	replicated := units.Bytes(workload.Params(m).Total() * 2)
	freed := replicated - (tl.Memory[0].Static())
	formula := fmt.Sprintf("(%d − %d − %d)·layer", m.Layers, owned, buffer)
	return strategy.Compare(strategy.Check{Name: "weights freed", Formula: "(layers − owned − buffer)·layer",
		Source: "SiDP: a GPU keeps the layers it owns and a buffer", Tolerance: 1e-9},
		"weights freed on GPU 0: simulated {}; "+formula+" = {}", float64(freed), float64(units.Bytes(m.Layers-owned-buffer)*layer), strategy.GiB)
}

// kvRoom is the KV room in tokens, the peak memory and any OOM.
func kvRoom(sum timeline.Summary, is *timeline.InferenceSummary, gpu hw.GPU) strategy.Part {
	var peak units.Bytes
	oom := 0
	for _, g := range sum.GPUs {
		peak = max(peak, g.PeakMemory)
		if g.OOM {
			oom++
		}
	}
	part := strategy.Figure("KV room {} tokens, peak {} of {}", strategy.Value{V: float64(is.KVCapacity), Unit: strategy.Count},
		strategy.Value{V: float64(peak), Unit: strategy.GiB}, strategy.Value{V: float64(gpu.HBM), Unit: strategy.GiB})
	if oom > 0 {
		part.Text += ", OUT OF MEMORY on {} GPUs"
		part.Values = append(part.Values, strategy.Whole(oom))
	}
	return part
}

// decodeStepCheck prices stage 0's first decode step of microbatch 0 by
// the roofline and sets it beside the simulated span; false when the run
// has none to compare (shared weights, tensor parallelism).
func decodeStepCheck(s scenario.Scenario, tl *timeline.Timeline, m workload.Model, gpu hw.GPU, layers int, perToken units.Bytes) (strategy.Part, bool) {
	p, in := s.Parallel, SettingsOf(&s)
	if in.SharedWeights != SharedNone || p.TP != 1 || in.Output < 2 {
		return strategy.Part{}, false
	}
	var span *timeline.Span
	for i := range tl.Spans {
		if sp := &tl.Spans[i]; sp.GPU == 0 && sp.Kind == timeline.Decode && sp.Microbatch == 0 {
			span = sp
			break
		}
	}
	if span == nil {
		return strategy.Part{}, false
	}
	b := tl.Inference.Microbatches[0].Requests
	context := in.Prompt + 1
	weights := float64(int64(layers)*workload.Params(m).PerLayer) * 2
	if p.PP == 1 { // the head, and the final norm, on the only stage
		weights += float64(workload.Params(m).FinalNorm+int64(m.Vocab)*int64(m.Hidden)) * 2
	}
	kv := float64(int64(b)*int64(context)) * float64(perToken)
	if eff := s.Training.Efficiency; eff > 0 {
		flops := weights*float64(b) + 4*float64(layers*b*context*m.Hidden) // 2 FLOPs per weight (2 bytes) per token
		return rooflineStepCheck(span, b, context, weights+kv, flops, gpu, eff), true
	}
	return opStepCheck(span, m, gpu, layers, p.PP, b, context, weights, kv, weights*float64(b)), true
}

// rooflineStepCheck sets a decode span beside the fixed-efficiency
// roofline that training.efficiency asks for.
func rooflineStepCheck(span *timeline.Span, b, context int, bytes, flops float64, gpu hw.GPU, eff float64) strategy.Part {
	memory := units.Round(bytes / float64(gpu.HBMBandwidth))
	compute := units.Round(flops / (gpu.PeakFLOPS * eff))
	label := "(weights + KV)/HBM bandwidth"
	want := memory
	if compute > memory {
		label, want = "FLOPs/(peak·efficiency)", compute
	}
	return strategy.Compare(strategy.Check{Name: "decode step", Formula: "max((weights + KV)/HBM bandwidth, FLOPs/(peak·efficiency))",
		Source: "the roofline (Williams, Waterman & Patterson 2009)", Tolerance: 0.01},
		fmt.Sprintf("decode step (stage 0, %d requests, context %d): simulated {}; %s = {}", b, context, label),
		float64(span.End-span.Start), float64(want), strategy.Nanoseconds)
}

// opStepCheck sets a decode span beside the op model's floor: attention
// streams the cache once at the achievable HBM bandwidth (the GEMM
// model's η, sim/gemm), the weight GEMMs take the longer of streaming the
// weights and their FLOPs at the GEMM model's ceiling, and every kernel
// pays one launch,
//
//	t = KV/(η·HBM) + max(weights/(η·HBM), 2·P·requests/ceiling) + kernels · launch
//	kernels = layers · (11 + 1 with rotary embeddings) + 1 on the first stage + 2 on the last
//
// (per layer two norms, QKV, rotary, the cache append, attention, the
// output projection, two residual adds and the MLP's two GEMMs and
// activation; the embedding lookup; the final norm and the logits). The
// op model also moves each kernel's activations, which this floor leaves
// out: a few percent of a step at a hundred requests, hence the tolerance.
func opStepCheck(span *timeline.Span, m workload.Model, gpu hw.GPU, layers, pp, b, context int, weights, kv, flops float64) strategy.Part {
	kernels := layers * 11
	if m.Position == workload.PositionRoPE {
		kernels += layers
	}
	kernels++ // stage 0 is first
	if pp == 1 {
		kernels += 2
	}
	launches := float64(kernels) * operators.DefaultLaunchOverhead.Seconds()
	hbm, ceiling := float64(gpu.HBMBandwidth), gpu.PeakFLOPS
	if p, err := gemm.Lookup(gpu.Name); err == nil {
		hbm *= p.HBMEfficiency
		ceiling *= p.Ceiling[gemm.BF16]
	}
	gemms, label := weights/hbm, "(KV + weights)/(η·HBM)"
	if c := flops / ceiling; c > gemms {
		gemms, label = c, "KV/(η·HBM) + 2·P·requests/ceiling"
	}
	want := units.Round(kv/hbm + gemms + launches)
	return strategy.Compare(strategy.Check{Name: "decode step", Formula: "KV/(η·HBM) + max(weights/(η·HBM), 2·P·requests/GEMM ceiling) + kernels·launch",
		Source: "the roofline (Williams, Waterman & Patterson 2009) at sim/gemm's achievable bandwidth and ceiling, one launch per kernel", Tolerance: 0.15},
		fmt.Sprintf("decode step (stage 0, %d requests, context %d): simulated {}; %s + %d launches = {}", b, context, label, kernels),
		float64(span.End-span.Start), float64(want), strategy.Nanoseconds)
}
