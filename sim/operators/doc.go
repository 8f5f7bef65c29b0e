// Package operators lists the kernels one GPU runs for a transformer layer,
// forward and backward, with their shapes, and prices them with a roofline.
//
// # The op list
//
// Layer returns one layer as Ops in the order a GPU runs them: the forward
// pass, the recomputation the policy asks for, then the backward pass in
// reverse. Each Op knows its Kind (a GEMM with m, n, k and batch; fused
// attention; an elementwise or reduction kernel; a collective), its FLOPs,
// the bytes it reads from and writes to HBM, and the bytes it keeps for
// the backward pass. Embedding, Head (final norm, logits, cross-entropy)
// and Optimizer (Megatron's distributed Adam step) complete a stage.
//
// Tensor parallelism t splits weights as Megatron-LM does (Shoeybi et al.
// 2019): QKV and the first MLP matrix by columns, the output projection and
// the second MLP matrix by rows, heads and key/value heads t ways. Sequence
// parallelism (Korthikanti et al. 2022, §4.2.2) shards the norms, dropouts
// and residuals t ways along the sequence and turns each all-reduce into an
// all-gather and a reduce-scatter. Context parallelism c gives each GPU s/c
// tokens whose queries attend to all s keys (ring attention, Liu et al.
// 2023).
//
// A model with linear biases (GPT's) also runs the kernels Megatron-LM's
// layer adds around its GEMMs: the QKV projection's bias add, a kernel of
// its own because F.linear on a 3-D input adds the bias after the matmul,
// and one reduction per biased linear that sums the output gradient over
// the tokens into the bias gradient (the other three biases are added
// inside the fused bias-GeLU and bias-dropout-add kernels, which the list
// already prices). Eager attention adds the copies of its layout changes:
// the context permuted into the projection's [s, b, h] layout, and the
// q, k, v gradients concatenated by the split's backward pass
// (megatron/model/transformer.py and mpu/layers.py at aed2f75e, 2021, and
// in the 2022 code).
//
// # Attention
//
// Eager attention is Korthikanti et al. 2022's layer: QKᵀ, a fused
// scale-mask-softmax, dropout and softmax·V, each its own kernel, keeping
// the s×s softmax output, dropout mask and dropout output for the backward
// pass. Its saved bytes per layer equal the paper's
//
//	sbh(10 + 24/t + 5as/(ht))   tensor parallel
//	sbh(34/t + 5as/(ht))        with sequence parallelism
//
// exactly for GPT's layer (the tests compare them with workload's closed
// form); per-row statistics (norm mean and rstd, which the paper leaves
// out) are counted apart, in Op.SavedStats.
//
// Flash attention (Dao et al. 2022; Dao 2023; Shah et al. 2024) is one
// kernel that keeps no s×s tensor: it saves Q, K, V, its output and the
// fp32 logsumexp per query row and head, and its backward pass recomputes
// the scores, which makes it 2.5× the forward FLOPs (five matmuls for
// two), as flash-attention's own benchmark script counts them
// (Dao-AILab/flash-attention, benchmarks/benchmark_flash_attention.py,
// read through the search tool). Under a causal mask
// it skips the masked half: forward FLOPs 2·b·s²·h/t instead of 4·b·s²·h/t.
//
// # Mixtures of experts and MLA
//
// An MoE layer (moe.go) replaces the MLP by the router's GEMM, softmax and
// top-k, the permutation, the dispatch all-to-all over the
// expert-parallel group (Config.EP), with expert tensor parallelism
// (Config.ETP) an all-gather, the grouped GEMMs of the GPU's local experts
// at the rows routed to each (priced by the GEMM model per expert, one
// launch per grouped kernel), then back, the weighted unpermutation and
// any shared experts as a dense MLP. Layer takes balanced routing;
// Experts lists the expert GEMMs at any rows, so that a skewed router's
// hot expert costs its GPU more time and more saved activations. A
// mixture's first dense_layers are Config.DenseMLP. MLA (mla.go:
// DeepSeek-V2/V3's latent projections, explicit up-projections, a fused
// kernel whose value heads are narrower than its query-key heads) replaces
// the QKV projection.
//
// # Recomputation
//
// Selective recomputation (Korthikanti et al. 2022) drops what the
// attention core keeps beyond its inputs and re-runs the core before the
// backward pass; full recomputation keeps each layer's input only and
// re-runs the whole forward pass, its tensor- and context-parallel
// collectives included (issue 20, item 7).
//
// # Precision
//
// bf16 and fp16 keep activations in 2 bytes. fp8 runs the layer's linear
// GEMMs in FP8 (1-byte inputs, 16-bit outputs) and keeps their saved inputs
// in FP8, while the embedding, output head, norms and attention stay in
// 16 bits. That is the DeepSeek-V3 report's FP8 framework (DeepSeek-AI
// 2024, §3.3: GEMMs in FP8; embedding, output head, gating, normalisation
// and attention kept in higher precision; cached activations compressed to
// lower precision), read through copies of its text found with the search
// tool, not the PDF itself. The casts to FP8 are taken as fused into the
// kernels that produce the GEMM inputs (norm, activation), and the FP8
// copies of weights and their scaling factors are model state, not here.
//
// # Pricing
//
// A Pricer prices each op by a roofline (Williams et al. 2009):
//
//	time = max(FLOPs / (peak(dtype) × efficiency(op)), bytes / HBM bandwidth) + launch
//
// with the efficiency a function the caller passes in, so that a model of
// GEMM efficiency from shape and GPU plugs in, and a per-kernel launch
// overhead (DefaultLaunchOverhead, from an empty-kernel microbenchmark).
// Results are cached per shape. Collectives are left to sim/collective.
package operators
