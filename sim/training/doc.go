// Package training simulates training a transformer with data, tensor,
// pipeline, context and expert parallelism and ZeRO (the strategy
// "training"), one iteration at a time, as a task graph played by package
// taskgraph.
//
// The unit of work is a pipeline op (F, B or W of one microbatch on one
// model chunk) of one model-parallel group: the tp·cp GPUs that share a
// data-parallel replica and a pipeline device run it in lockstep, so it is
// one group op on all their compute streams (taskgraph.Group), its compute
// then its blocking tensor-, context- and expert-parallel communication.
// Around the ops:
//   - pipeline point-to-point messages between consecutive model stages,
//     b·(s/cp)·h elements per microbatch and direction, split over the tp
//     ranks (Megatron's scatter/gather; Narayanan et al. 2021, §4.1),
//     travelling while the sender computes on, or with parallel.p2p:
//     blocking holding the sender until they land and all-gathering the
//     slices on the receiver first (Megatron-LM's exchange, 2021-22), or
//     blocking_list, which also copies the gathered tensor once more at
//     the streaming fraction of HBM (the 2021 code's list-based
//     all_gather; listGatherCopy);
//   - the data-parallel gradient collectives of each model chunk, in
//     buckets of about 25 MB (PyTorch DDP's default, Li et al. 2020; at
//     most 8 per chunk): the chunk's last backward is cut into as many
//     pieces, and each bucket's collective starts when its piece ends, on
//     the communication stream, so it overlaps the rest of the backward
//     and the remaining compute (parallel.grad_reduce: after_backward
//     instead sums each chunk's gradients at once after the device's last
//     backward, as Megatron-LM's local DDP did in 2021); ZeRO-1/2 reduce-scatter instead and
//     all-gather the updated parameters after the step, ZeRO-3 also
//     all-gathers parameters before every pass, one op ahead (Rajbhandari
//     et al. 2020); with parallel.zero_group g < dp each of these runs
//     within groups of g replicas, and a shard's gradients are then
//     all-reduced across the groups (hierarchical ZeRO, hzp.go); with parallel.cyclic (cyclic.go;
//     Fournier & Oyallon 2024) the replicas start a step/dp apart and a
//     point-to-point relay round them replaces the collectives;
//   - the optimizer step, memory-bound: Megatron-LM's mixed-precision step,
//     42 bytes of HBM traffic per parameter of the shard this GPU updates
//     in bf16 (Adam's 28, the gradient norm's 4, the fp32-to-bf16 weight
//     copy's 6, the main-gradient buffer's reset, 4), 50 or 52 in fp16
//     (stepBytes: the loss-scale unscale, and with unfused accumulation the
//     fp16 gradients' copy to fp32), at the fraction of HBM a streaming
//     kernel reaches; counted from the code, not measured.
//
// Compute (optime.go): a dense model's F, B and W are its operator lists
// (package operators: every kernel of a layer, the embedding and the head,
// with its shape, FLOPs and HBM bytes) priced by a roofline: each GEMM at
// the time package gemm gives its (batch, m, n, k), dtype and GPU (fitted
// to measured tables), fused attention at operators.FlashEfficiency of the
// tensor peak, every other kernel by its bytes at the fraction of the HBM
// bandwidth memory-bound GEMMs were measured to stream at, and each kernel
// the fitted launch once. An explicit training.efficiency and a mixed
// cluster's other GPU types (scaled by their peaks) keep the older
// pricing: the layer's FLOPs at a fixed fraction of peak. A mixture of
// experts' layers come from the same lists at balanced routing; moe.go
// routes each step's layers (package moe), gives every GPU of an
// expert-parallel group its experts' rows, makes the group wait for its
// slowest GPU and adds the all-to-alls (moe_exchange.go), as the tail of
// each op (taskgraph.Group.Tail, expert-parallel communication). training.grad_accumulation: unfused
// adds Megatron-LM's pre-2022 per-microbatch gradient add kernels.
// parallel.tp_comm_overlap hides each pass's tensor-parallel collectives
// under its GEMMs (overlapTP); full recomputation re-runs the forward's
// collectives.
//
// Precision (training.precision): bf16 and fp16 run every GEMM in 16 bits.
// fp8 runs the transformer layers' linear GEMMs (QKV, output projection,
// MLP: forward, dgrad and wgrad, and their recompute) at its PeakFP8 and
// the rest (the attention core, the MoE router, the output head) at
// PeakFLOPS, as Transformer Engine's fp8_autocast does for te.Linear and
// as the DeepSeek-V3 report (§3.3.1) keeps the embedding, output head, MoE
// gating, norms and attention in BF16 or FP32 (cost.go, pricing.time).
// Memory does not change with fp8: master weights, gradients and Adam's
// states are ZeRO's 16 bytes per parameter of mixed precision, and the
// activations are the bf16 ones. Not modelled: the FP8 copies of the
// weights, the activations that FP8 recipes save for the linear layers'
// backward in FP8 (half the bytes of those tensors; DeepSeek-V3 §3.3.3),
// the scaling factors (one per tensor with delayed or current scaling;
// one per 1×128 activation tile and 128×128 weight block in DeepSeek-V3's
// recipe), the quantize/transpose kernels, and FP8 communication. MFU
// stays relative to the bf16 peak in fp8 runs.
//
// parallel.schedule: ready-first (readyfirst.go; Liu et al. 2026, RRFP)
// gives each device's ops no fixed order: a dispatcher releases, whenever
// the device is free, 1F1B's next op once its inputs have arrived, and a
// later op only if its estimate says it ends before those inputs can (so
// never slower than 1F1B), with at most p microbatches in flight.
//
// The files follow the concepts: layout.go says where the work runs (the
// parallel plan, the pipeline schedule, the model-parallel groups),
// cost.go what each op costs (a real model's FLOPs on the GPU, or
// synthetic op times), ops.go lays out the pipeline's ops and their
// dependencies, dataparallel.go the gradient collectives, ZeRO and the
// optimizer, hzp.go hierarchical ZeRO's groups, sdp.go and sdpcomm.go subnetwork data parallelism
// (parallel.sdp: each worker holds a slice of every layer, its gradients
// summed over the slice's holders), memory.go the memory and metrics of
// the record, reserve.go
// the memory a process holds beside its tensors (the CUDA context and
// cuBLAS workspaces of its GPU type, NCCL's buffers and the allocator's
// segments per communicator; peaks above 90% of HBM are flagged, not
// refused: timeline.NearOOM). How
// communication is priced is one fidelity: free on an ideal network,
// closed-form delays (analytic), or messages on the links (detailed).
//
// A scenario with faults, stragglers, variable-length batches or several
// iterations is played step by step (faults.go, recovery.go): each step is
// one simulated iteration, faults scale its compute or cut it short,
// recovery policies stall, restart or drop replicas between steps, and the
// steps are joined into one timeline with a record per iteration. The
// resihp policy (resihp.go) re-plans between steps: it re-partitions the
// layers when the detector flags a slow GPU and regroups the job onto a
// grid of the healthy GPUs after a fail-stop (regroup.go), whose steps are
// simulated as a scenario of their own and mapped onto the cluster
// (placement.go), and it charges each re-plan's state transfer as messages
// on the fabric (statexfer.go). Mixed GPU types and balanced stage
// partitions live in hetero.go.
//
// Beside Simulate: Estimator (estimate.go) bounds an iteration from its op
// costs without running it, for the planner; Long (longrun.go) replays
// weeks of failures against one simulated iteration.
package training
