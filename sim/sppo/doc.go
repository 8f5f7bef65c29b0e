// Package sppo simulates long-sequence training with activations offloaded
// to host memory over PCIe, after SPPO (Chen, Li, Gao, Sun, Wen and Zhang,
// "SPPO: Efficient Long-sequence LLM Training via Adaptive Sequence
// Pipeline Parallel Offloading", 2025): one sequence of sppo.tokens is cut
// into sppo.chunks subsequences that flow through the pipeline's stages
// (one GPU each, the model's layers split evenly) like microbatches, all
// forwards in order then all backwards in reverse order, as causal
// attention needs (a chunk attends to the chunks before it).
//
// Cost model, per stage of ℓ layers and chunk c of s_c tokens after a
// prefix of p_c tokens (FLOPs at the GPU's peak × its catalog efficiency):
//
//	F_c = ℓ·(2·P_layer·s_c + 4·h·s_c·(p_c + s_c/2))  (+ 2·h·V·s_c on the last stage)
//	B_c = 2·F_c
//
// the dense layer's 2 FLOPs per parameter and token and causal attention's
// QKᵀ and AV over the chunk's prefix (Narayanan et al. 2021's counts, the
// causal half as FlashAttention computes it). A chunk keeps
// A_c = ℓ·34·h·s_c bytes of activations (Korthikanti et al. 2022, flash
// attention: no s² term); stages pass 2·h·s_c bytes of hidden state.
//
// Offloading (sppo.offload = f): after a chunk's forward, the share f of
// its activations goes to the GPU's host over its PCIe link (sppo.pcie),
// one transfer after another, D_c = f·A_c / β + α; the last chunk, which
// the backward needs first, stays. Two chunk buffers: the forward of chunk
// c + 2 waits until chunk c's offload has finished. So an offload is
// hidden iff D_c ≤ F_{c+1} (it ends under the next chunk's forward) and
// the forward is held back by max(0, D_c − F_{c+1}) otherwise. For the
// backward, each chunk's share is reloaded (prefetched) as soon as the
// chunk two after it has finished its backward, so that B_c waits only if
// the reload is longer than B_{c+1}.
//
// Memory: each GPU holds its stage's model states (16 bytes a parameter,
// mixed-precision Adam: Rajbhandari et al. 2020) and its chunks'
// activations, taken when a forward starts, given back f·A_c when the
// offload ends, taken again when the reload starts, freed when the chunk's
// backward ends. The peak falls from Σ_c A_c to
// Σ_c A_c − f·Σ_{c ≤ n−3} A_c (the offload of chunk n−2 is in flight when
// the last forward starts). Host memory (sppo.host_memory per GPU) holds
// f·Σ_{c ≤ n−2} A_c at most; each host is drawn as a CPU lane beside its
// GPU, its PCIe link carrying the offloads and reloads.
//
// Not modelled: SPPO's adaptive choice of f and of the chunk lengths (both
// are given), its multiplexed sequence partitioning across pipelines, the
// keys and values of earlier chunks that a chunk's attention backward also
// reads, tensor or sequence parallelism inside a stage, GPUs that share one
// PCIe switch to the host, and the optimizer step.
package sppo
