// Package workload describes the transformer that ParaPlay trains: its
// shapes, its parameter count, the FLOPs of each op a pipeline stage runs,
// how long those take on a GPU, and the memory a GPU needs for model states
// and activations. Every cost is an exact count or a published closed form,
// cited where it is defined and tested against an independent computation.
//
// # Models
//
// A Model is a decoder-only transformer (layers l, hidden h, heads a,
// kv_heads, ffn_hidden, vocab V, seq_len s; a GeLU or SwiGLU MLP; optional
// mixture of experts with experts and top_k). Presets, by LookupModel and
// Models: gpt3-1.3b and gpt3-175b (Brown et al. 2020, Table 2.1),
// gpt-neox-20b (Black et al. 2022), llama3-8b, llama3-70b and llama3-405b (Dubey et al. 2024), mixtral-8x7b
// (Jiang et al. 2024), and megatron-1.7b … megatron-1t, the weak-scaling
// models of Narayanan et al. 2021 (SC'21), Table 1.
//
// # Parameters
//
// Params counts exactly, tensor by tensor. For GPT-style models Narayanan
// et al. 2021 give the closed form (NarayananParams)
//
//	P = 12·l·h²·(1 + 13/(12h) + (V+s)/(12·l·h))
//
// which is Params minus the final LayerNorm.
//
// # FLOPs
//
// Only matrix multiplications count, 2 FLOPs per multiply-add. One layer's
// forward pass on b sequences is 24·b·s·h² + 4·b·s²·h for GPT (QKV 6bsh²,
// scores and softmax·V 4bs²h, projection 2bsh², MLP 16bsh²); LayerFLOPs
// computes it for any model, divided by tensor parallelism t and context
// parallelism c, and splits each part's backward pass into B (input
// gradients) and W (weight gradients): B = W = F for weight matmuls, B =
// 2F and W = 0 for the attention core. The head adds 2·b·s·h·V forward
// (HeadFLOPs); the embedding lookup is free. Summed over an iteration of B
// sequences (IterationFLOPs) this is Narayanan et al. 2021's
//
//	72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h))                 model FLOPs
//	96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h))                 with full recomputation
//
// for GPT-style models, which the tests check. Selective recomputation
// (Korthikanti et al. 2022) re-runs the attention core's forward, full
// recomputation the whole layer's.
//
// # Time and utilisation
//
// OpTime is FLOPs / (peak × efficiency) through hw.GPU.ComputeTime. MFU
// and HFU follow PaLM (Chowdhery et al. 2022): model FLOPs per second over
// GPUs × peak, HFU counting recomputed FLOPs too.
//
// # Memory
//
// ModelStateBytes is ZeRO's accounting (Rajbhandari et al. 2020) for Ψ
// parameters on a GPU with mixed-precision Adam (K = 12) over N_d
// data-parallel ranks: (2+2+K)Ψ, 2Ψ+2Ψ+KΨ/N_d, 2Ψ+(2+K)Ψ/N_d and
// (2+2+K)Ψ/N_d for stages 0–3; ZeROCommVolume is 2Ψ, or 3Ψ for stage 3.
// ActivationBytesPerLayer is Korthikanti et al. 2022's per-layer
// activation memory in fp16/bf16:
//
//	sbh(10 + 24/t + 5as/(ht))   tensor parallel (t = 1: sbh(34 + 5as/h))
//	sbh(34/t + 5as/(ht))        with sequence parallelism
//	sbh(10 + 24/t), sbh·34/t    the same with selective recomputation
//	2sbh                        full recomputation
//
// with s/c for s under context parallelism c.
//
// Degrees that are out of range (a microbatch, t or c below 1, an unknown
// recomputation policy, a ZeRO stage outside 0–3) make these functions
// panic: scenarios validate them first, as with hw.GPU.ComputeTime.
package workload
