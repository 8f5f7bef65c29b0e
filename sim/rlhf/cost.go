package rlhf

import (
	"math"

	"paraplay/sim/hw"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// bytesPerValue is bf16: the weights and the KV cache are 2 bytes a value.
const bytesPerValue = 2

// params is P, the model's parameter count (package workload's count).
func params(m workload.Model) float64 { return float64(workload.Params(m).Total()) }

// WeightBytes is the bf16 weights of m: 2P.
func WeightBytes(m workload.Model) float64 { return bytesPerValue * params(m) }

// KVBytesPerToken is the KV cache one token adds: a key and a value of
// kv_heads × head_dim per layer, in bf16 (2 · l · kv_heads · d_head · 2).
func KVBytesPerToken(m workload.Model) float64 {
	return 2 * float64(m.Layers) * float64(m.KVHeadCount()) * float64(m.HeadDim()) * bytesPerValue
}

// flopRate is what one GPU sustains on matrix multiplications.
func flopRate(g hw.GPU) float64 { return g.PeakFLOPS * g.Efficiency }

// PrefillSeconds is the prompt pass of seqs sequences of promptLen tokens
// on a tensor-parallel group of tp GPUs: compute bound, 2·P FLOPs per token
// (the forward-pass count of Kaplan et al. 2020, "Scaling Laws for Neural
// Language Models", §2.1; the attention term is left out), split over
// the group: 2·P·seqs·promptLen / (tp · peak · efficiency).
func PrefillSeconds(m workload.Model, g hw.GPU, tp, seqs, promptLen int) float64 {
	return 2 * params(m) * float64(seqs) * float64(promptLen) / (float64(tp) * flopRate(g))
}

// DecodeStepSeconds is one decode step of seqs sequences that hold ctx
// tokens of KV cache each, on a tensor-parallel group of tp GPUs: the
// roofline (Williams, Waterman & Patterson 2009) of its two limits. Every
// step reads all the weights and every sequence's KV cache from HBM, which
// bounds small batches by memory bandwidth (the argument of Pope et al.
// 2022, "Efficiently Scaling Transformer Inference", §2):
//
//	max( (2P + seqs·ctx·κ) / (tp · HBM bandwidth),  2·P·seqs / (tp · peak · efficiency) )
//
// with κ = KVBytesPerToken. The tensor-parallel all-reduces are not charged.
func DecodeStepSeconds(m workload.Model, g hw.GPU, tp, seqs, ctx int) float64 {
	bytes := WeightBytes(m) + float64(seqs)*float64(ctx)*KVBytesPerToken(m)
	memory := bytes / (float64(tp) * float64(g.HBMBandwidth))
	compute := 2 * params(m) * float64(seqs) / (float64(tp) * flopRate(g))
	return math.Max(memory, compute)
}

// GenerateTime is one batch of prompts generated on gpus GPUs of type g in
// groups of tp: gpus/tp replicas each take ⌈prompts / replicas⌉ sequences,
// prefill them, then decode responseLen tokens one step at a time, the KV
// cache growing by one token per sequence per step:
//
//	prefill + Σ_{j=0}^{responseLen−1} DecodeStep(ctx = promptLen + j)
//
// Every sequence of a batch is taken to run to responseLen tokens.
func GenerateTime(m workload.Model, g hw.GPU, gpus, tp, prompts, promptLen, responseLen int) units.Time {
	replicas := gpus / tp
	seqs := (prompts + replicas - 1) / replicas
	sec := PrefillSeconds(m, g, tp, seqs, promptLen)
	for j := range responseLen {
		sec += DecodeStepSeconds(m, g, tp, seqs, promptLen+j)
	}
	return units.Round(sec)
}

// ForwardTime is a scoring pass (reference, reward or critic) over tokens
// tokens on gpus GPUs: 2·P·tokens / (gpus · peak · efficiency) (Kaplan et
// al. 2020), the batch split evenly over the GPUs.
func ForwardTime(m workload.Model, g hw.GPU, gpus int, tokens float64) units.Time {
	return units.Round(2 * params(m) * tokens / (float64(gpus) * flopRate(g)))
}

// TrainTime is one training pass (forward, backward) over tokens tokens on
// gpus GPUs: 6·P·tokens / (gpus · peak · efficiency), the 6PD of Kaplan et
// al. 2020 (backward twice the forward). It takes the gradient and ZeRO
// traffic to hide under the backward, one PPO epoch, and no recompute.
func TrainTime(m workload.Model, g hw.GPU, gpus int, tokens float64) units.Time {
	return units.Round(6 * params(m) * tokens / (float64(gpus) * flopRate(g)))
}

// ReshardTime is the actor's weights moving from their training layout
// (sharded over all n GPUs, ZeRO-3 style) to their generation layout
// (sharded over each tensor-parallel group of tp): each GPU gathers the
// 2P/tp − 2P/n bytes it lacks from its group, the receive-bound time of a
// ring all-gather ((k−1)/k · S · β with S = 2P/tp and k = n/tp; Thakur et
// al. 2005):
//
//	2P · (1/tp − 1/n) / bandwidth
//
// over the GPUs' link of the given bandwidth; 0 when tp = n.
func ReshardTime(m workload.Model, bandwidth units.Bandwidth, n, tp int) units.Time {
	return units.Round(WeightBytes(m) * (1/float64(tp) - 1/float64(n)) / float64(bandwidth))
}

// SyncTime is the trained actor's weights sent from the trainGPUs of the
// training pool to the genGPUs of the generation pool over ports of the
// given bandwidth and latency α. Each generating GPU needs its tensor-
// parallel shard, 2P/tp bytes, on its own port; the training pool sends
// genGPUs/tp copies of 2P bytes over its trainGPUs ports; the slower side
// sets the time (one hop, α–β):
//
//	α + 2P/(tp · bandwidth) · max(1, genGPUs / trainGPUs)
func SyncTime(m workload.Model, bandwidth units.Bandwidth, alpha units.Time, genGPUs, tp, trainGPUs int) units.Time {
	spread := math.Max(1, float64(genGPUs)/float64(trainGPUs))
	return alpha + units.Round(WeightBytes(m)/(float64(tp)*float64(bandwidth))*spread)
}

// intraBandwidth is the bandwidth of g's usual link between GPUs of one
// server (its catalog link's effective rate), used for resharding.
func intraBandwidth(g hw.GPU) units.Bandwidth {
	l, err := hw.LookupLink(g.Link)
	if err != nil {
		return 0
	}
	return l.Effective()
}
