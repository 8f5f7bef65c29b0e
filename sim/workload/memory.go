package workload

import "fmt"

// AdamStateBytes is K, the optimizer-state bytes per parameter of
// mixed-precision Adam (Rajbhandari et al. 2020, ZeRO, §3.1): an fp32 copy
// of the parameters, momentum and variance, 4 bytes each.
const AdamStateBytes = 12

// Breakdown is the model-state memory of one GPU, in bytes.
type Breakdown struct {
	// Parameters are the fp16/bf16 weights, 2 bytes each.
	Parameters float64
	// Gradients are the fp16/bf16 gradients, 2 bytes each.
	Gradients float64
	// OptimizerStates are Adam's fp32 parameter copy, momentum and
	// variance, K = 12 bytes per parameter.
	OptimizerStates float64
}

// Total is Parameters + Gradients + OptimizerStates.
func (b Breakdown) Total() float64 { return b.Parameters + b.Gradients + b.OptimizerStates }

// ModelStateBytes is the model-state memory of one GPU holding a shard of
// psi parameters (after tensor and pipeline parallelism have split the
// model), trained with mixed-precision Adam under ZeRO stage zero across dp
// data-parallel ranks (Rajbhandari et al. 2020, §5, Figure 1):
//
//	stage 0 (baseline)  (2 + 2 + K)·Ψ
//	stage 1 (P_os)      2Ψ + 2Ψ + K·Ψ/N_d
//	stage 2 (P_os+g)    2Ψ + (2 + K)·Ψ/N_d
//	stage 3 (P_os+g+p)  (2 + 2 + K)·Ψ/N_d
//
// with K = 12. It panics on a stage outside 0–3, dp < 1 or a negative psi.
func ModelStateBytes(psi float64, zero, dp int) Breakdown {
	checkZeRO(psi, zero, dp)
	n := float64(dp)
	b := Breakdown{Parameters: 2 * psi, Gradients: 2 * psi, OptimizerStates: AdamStateBytes * psi}
	if zero >= 1 {
		b.OptimizerStates /= n
	}
	if zero >= 2 {
		b.Gradients /= n
	}
	if zero >= 3 {
		b.Parameters /= n
	}
	return b
}

// ZeROCommVolume is the data-parallel traffic per training step, in
// parameter elements each rank sends (and receives), under ZeRO stage zero
// (Rajbhandari et al. 2020, §7): 2Ψ for stages 0–2 (an all-reduce, or a
// reduce-scatter of gradients plus an all-gather of parameters), 3Ψ for
// stage 3 (parameters are all-gathered again for the backward pass).
// Multiply by 2 for fp16/bf16 bytes.
func ZeROCommVolume(psi float64, zero int) float64 {
	checkZeRO(psi, zero, 1)
	if zero == 3 {
		return 3 * psi
	}
	return 2 * psi
}

func checkZeRO(psi float64, zero, dp int) {
	if zero < 0 || zero > 3 || dp < 1 || !(psi >= 0) {
		panic(fmt.Sprintf("workload: ZeRO stage %d (want 0–3), %d data-parallel ranks (want ≥ 1), Ψ = %v (want ≥ 0)", zero, dp, psi))
	}
}

// ActivationBytesPerLayer is the activation memory one transformer layer
// keeps for the backward pass, on one GPU, for a microbatch of b sequences
// with tensor parallelism t, sequence parallelism sp and recomputation
// policy recompute; ActivationBytesPerLayerCP with c = 1.
func ActivationBytesPerLayer(m Model, b, t int, sp bool, recompute Recompute) float64 {
	return ActivationBytesPerLayerCP(m, b, t, 1, sp, recompute)
}

// ActivationBytesPerLayerCP is ActivationBytesPerLayer under context
// parallelism c as well, which gives each GPU s/c of the sequence: s is
// replaced by s/c throughout. The formulas are Korthikanti et al. 2022
// (MLSys'23, §4 and Table 2), fp16/bf16, s sequence, b microbatch, h
// hidden, a heads:
//
//	no parallelism            sbh(34 + 5as/h)
//	TP                        sbh(10 + 24/t + 5as/(ht))
//	TP + SP                   sbh(34/t + 5as/(ht))
//	TP + selective recompute  sbh(10 + 24/t)
//	TP + SP + selective       sbh·34/t
//	full recompute            2sbh (the layer input only)
//
// "No parallelism" is the TP row at t = 1. The 34 and 5as/h count GPT's
// layer (MHA, 4h GeLU MLP, dropout); for GQA, SwiGLU or dropout-free
// layers they are an approximation. Full recompute is 2sbh as the paper's
// table gives it, also with SP (where Megatron in fact keeps the layer
// input sharded, 2sbh/t).
func ActivationBytesPerLayerCP(m Model, b, t, c int, sp bool, recompute Recompute) float64 {
	checkSplit(b, t, c, recompute)
	s := float64(m.SeqLen) / float64(c)
	sbh := s * float64(b) * float64(m.Hidden)
	T := float64(t)
	if recompute == RecomputeFull {
		return 2 * sbh
	}
	perToken := 10 + 24/T
	if sp {
		perToken = 34 / T
	}
	if recompute == RecomputeNone {
		perToken += 5 * float64(m.Heads) * s / (float64(m.Hidden) * T)
	}
	return sbh * perToken
}
