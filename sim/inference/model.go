package inference

import (
	"fmt"
	"math"

	"paraplay/sim/hw"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// BytesPerElement is the width of a bf16 or fp16 weight, activation or
// cached key/value.
const BytesPerElement = 2

// LogitBytes is the width of one logit sent to the host for sampling
// (fp32, as samplers take them).
const LogitBytes = 4

// Stage is one pipeline stage of a served model on one GPU of its
// tensor-parallel group: which layers it runs and on what hardware.
type Stage struct {
	// Model is the network's shape.
	Model workload.Model
	// Layers is the number of transformer layers on the stage, ≥ 0.
	Layers int
	// First and Last say whether the stage holds the embedding (first)
	// and the final norm and output head (last).
	First, Last bool
	// TP is the tensor-parallel degree, ≥ 1: weights, heads and the
	// cache are split TP ways.
	TP int
	// GPU is the accelerator: HBM size and bandwidth, peak FLOP/s.
	GPU hw.GPU
	// Efficiency is the fraction of peak FLOP/s the roofline methods
	// (Roofline, Decode, Prefill, Dense, Attention) assume, in (0, 1]; 0
	// means the GPU preset's. A serving run prices its steps with the op
	// model (OpModel) unless training.efficiency sets this override.
	Efficiency float64
}

// KVBytesPerToken is the key/value cache one token leaves on one GPU of a
// stage of `layers` layers: 2 · layers · kv_heads · head_dim · bytes / tp
// (a key and a value vector per layer, each kv_heads·head_dim wide).
func KVBytesPerToken(m workload.Model, layers, tp int) units.Bytes {
	return units.Bytes(2 * layers * m.KVHeadCount() * m.HeadDim() * BytesPerElement / tp)
}

// KVBytesPerToken is the stage's per-token cache on one of its GPUs.
func (s Stage) KVBytesPerToken() units.Bytes { return KVBytesPerToken(s.Model, s.Layers, s.TP) }

// WeightBytes is the weights the stage keeps on one GPU: its share of the
// parameters (workload.StageParams, Megatron's split) at BytesPerElement.
func (s Stage) WeightBytes() units.Bytes {
	return units.Bytes(math.Round(workload.StageParams(s.Model, s.Layers, s.First, s.Last, s.TP, 1) * BytesPerElement))
}

// ReadWeightBytes is the weights one forward pass streams from HBM: all
// of them except the embedding table, of which a step reads one row per
// token (counted as nothing).
func (s Stage) ReadWeightBytes() units.Bytes {
	w := workload.StageParams(s.Model, s.Layers, s.First, s.Last, s.TP, 1)
	if s.First {
		w -= float64(workload.Params(s.Model).Embedding) / float64(s.TP)
	}
	return units.Bytes(math.Round(w * BytesPerElement))
}

// matmulParams is the parameters a token multiplies by in the stage's
// layers (the head counted apart), split TP ways.
func (s Stage) matmulParams() float64 {
	return float64(s.Layers) * float64(workload.Params(s.Model).PerLayer) / float64(s.TP)
}

// headParams is the output head's parameters on one GPU (the tied
// embedding when the model ties them), 0 off the last stage.
func (s Stage) headParams() float64 {
	if !s.Last {
		return 0
	}
	return float64(s.Model.Vocab) * float64(s.Model.Hidden) / float64(s.TP)
}

// Cost is one operation's price under the roofline model.
type Cost struct {
	// Bytes is what it reads from (and writes to) HBM.
	Bytes units.Bytes
	// FLOPs is its arithmetic.
	FLOPs float64
	// Memory and Compute are Bytes / HBM bandwidth and FLOPs / (peak ·
	// efficiency); under the roofline Time is the larger, under the op
	// model (OpModel) each is a sum over kernels and Time the sum of
	// each kernel's larger plus its launch.
	Memory, Compute, Time units.Time
	// Kernels is the kernels the op model priced, and Overhead their
	// launches (Kernels × operators.DefaultLaunchOverhead); 0 under the
	// roofline, which has no per-kernel cost.
	Kernels  int
	Overhead units.Time
}

// plus is the cost of c and d run one after the other.
func (c Cost) plus(d Cost) Cost {
	return Cost{Bytes: c.Bytes + d.Bytes, FLOPs: c.FLOPs + d.FLOPs, Memory: c.Memory + d.Memory, Compute: c.Compute + d.Compute,
		Time: c.Time + d.Time, Kernels: c.Kernels + d.Kernels, Overhead: c.Overhead + d.Overhead}
}

// MemoryBound reports whether the bandwidth term decides the time.
func (c Cost) MemoryBound() bool { return c.Memory >= c.Compute }

// Roofline prices bytes and flops on the stage's GPU:
// max(bytes / HBM bandwidth, flops / (peak · efficiency)), at least 1 ns.
func (s Stage) Roofline(bytes units.Bytes, flops float64) Cost {
	eff := s.Efficiency
	if eff == 0 {
		eff = s.GPU.Efficiency
	}
	c := Cost{Bytes: bytes, FLOPs: flops}
	c.Memory = units.Round(float64(bytes) / float64(s.GPU.HBMBandwidth))
	c.Compute = units.Round(flops / (s.GPU.PeakFLOPS * eff))
	c.Time = max(c.Memory, c.Compute, 1)
	return c
}

// Decode prices one decode step of a batch of b requests whose cache
// holds context tokens each (the new token included):
//
//	bytes = weights read + b · context · KV bytes per token
//	FLOPs = 2 · P_layers · b + 2 · P_head · b + 4 · layers · b · context · hidden / tp
//
// (2 FLOPs per weight per token; attention's QKᵀ and AV each cost
// 2 · context · hidden per token and layer.) Time = max(bytes / HBM
// bandwidth, FLOPs / (peak · efficiency)): the roofline.
func (s Stage) Decode(b, context int) Cost {
	d, a := s.Dense(b, b), s.Attention(b, context, false)
	return s.Roofline(d.Bytes+a.Bytes, d.FLOPs+a.FLOPs)
}

// Prefill prices the prefill of b prompts of p tokens: every prompt token
// goes through the layers, causal attention costs half of the full
// 4 · p² · hidden per layer and prompt, and only each prompt's last token
// goes through the head (its logits give the first output token). It
// reads the weights once and writes the cache of b · p tokens.
func (s Stage) Prefill(b, p int) Cost {
	d, a := s.Dense(b*p, b), s.Attention(b, p, true)
	return s.Roofline(d.Bytes+a.Bytes, d.FLOPs+a.FLOPs)
}

// Dense prices the weight math of tokens tokens, rows of which go through
// the head: the weights read once, 2 · P_layers · tokens + 2 · P_head · rows
// FLOPs.
func (s Stage) Dense(tokens, rows int) Cost {
	return s.Roofline(s.ReadWeightBytes(), 2*s.matmulParams()*float64(tokens)+2*s.headParams()*float64(rows))
}

// Attention prices attention over the cache of b requests of context
// tokens: a decode step reads the whole cache, b · context · KV bytes per
// token, for 4 · layers · b · context · hidden / tp FLOPs; a prefill
// writes it, for half of 4 · layers · b · context² · hidden / tp (causal).
func (s Stage) Attention(b, context int, prefill bool) Cost {
	bytes := units.Bytes(b*context) * s.KVBytesPerToken()
	f := 4 * float64(s.Layers) * float64(b) * float64(context) * float64(s.Model.Hidden) / float64(s.TP)
	if prefill {
		f *= float64(context) / 2
	}
	return s.Roofline(bytes, f)
}

// PrefillChunk is the most tokens one forward pass takes at once: a longer
// prefill runs in chunks of this size (as vLLM's chunked prefill does; the
// size is our assumption), so its workspace is one chunk's. Its time is
// priced as one op: the chunks' extra weight reads are ignored, which
// matters little for a compute-bound prefill.
const PrefillChunk = 8192

// ActivationBytes is the transient workspace while tokens tokens go
// through one layer of the stage: the hidden states and the gated MLP's
// two inner projections, tokens · (hidden + 2 · ffn / tp) · bytes, with
// tokens capped at PrefillChunk, plus on the last stage the fp32 logits of
// rows rows (one per request). It is an estimate of the largest tensors
// alive at once, not an allocator's trace.
func (s Stage) ActivationBytes(tokens, rows int) units.Bytes {
	tokens = min(tokens, PrefillChunk)
	a := tokens * (s.Model.Hidden + 2*s.Model.FFNWidth()/s.TP) * BytesPerElement
	if s.Last {
		a += rows * s.Model.Vocab / s.TP * LogitBytes
	}
	return units.Bytes(a)
}

// KVCapacity is how many tokens of cache fit on the GPU beside resident
// bytes (weights, buffers, peak workspace): ⌊(HBM − resident) / KV bytes
// per token⌋, 0 when nothing fits.
func KVCapacity(hbm, resident, perToken units.Bytes) int64 {
	if perToken <= 0 || resident >= hbm {
		return 0
	}
	return int64((hbm - resident) / perToken)
}

// LayerWeightBytes is one transformer layer's weights at BytesPerElement.
func LayerWeightBytes(m workload.Model) units.Bytes {
	return units.Bytes(workload.Params(m).PerLayer * BytesPerElement)
}

// Shared is how SiDP-style shared-weight data parallelism places a model
// on d GPUs of a node: GPU i owns layers OwnedLayers(i) and keeps them;
// the embedding, final norm and head stay on every GPU.
type Shared struct {
	// Model is the network.
	Model workload.Model
	// GPUs is d, the replicas sharing one copy of the layers, ≥ 1.
	GPUs int
	// Fetch is true when a GPU fetches a layer it does not own into a
	// double buffer before using it (Weight-as-a-Service), false when it
	// sends its activations to the owner (Compute-as-a-Service).
	Fetch bool
}

// Owner is the GPU that owns layer l: contiguous blocks, the first
// L mod d GPUs owning one layer more.
func (s Shared) Owner(l int) int {
	L, d := s.Model.Layers, s.GPUs
	q, r := L/d, L%d
	if l < r*(q+1) {
		return l / (q + 1)
	}
	return r + (l-r*(q+1))/q
}

// OwnedLayers is the number of layers GPU i owns: ⌈L/d⌉ or ⌊L/d⌋.
func (s Shared) OwnedLayers(i int) int {
	L, d := s.Model.Layers, s.GPUs
	if i < L%d {
		return L/d + 1
	}
	return L / d
}

// BufferLayers is the layers of borrowed weights a GPU holds at once: two
// under fetching (one in use, one arriving), none when activations travel.
func (s Shared) BufferLayers() int {
	if s.Fetch && s.GPUs > 1 {
		return 2
	}
	return 0
}

// WeightBytes is what GPU i keeps of the weights: its own layers, the
// embedding, final norm and head, and the borrowed-layer buffer.
func (s Shared) WeightBytes(i int) units.Bytes {
	p := workload.Params(s.Model)
	rest := units.Bytes((p.Embedding + p.FinalNorm + p.Head) * BytesPerElement)
	return rest + units.Bytes(s.OwnedLayers(i)+s.BufferLayers())*LayerWeightBytes(s.Model)
}

// Freed is the HBM GPU i gains over a full replica:
// (L − owned − buffer) · one layer's weights.
func (s Shared) Freed(i int) units.Bytes {
	return units.Bytes(s.Model.Layers-s.OwnedLayers(i)-s.BufferLayers()) * LayerWeightBytes(s.Model)
}

// String describes the placement, e.g. "8 layers each on 4 GPUs, fetched".
func (s Shared) String() string {
	how := "activations sent to the owner"
	if s.Fetch {
		how = "weights fetched"
	}
	return fmt.Sprintf("%d layers on %d GPUs, %s", s.Model.Layers, s.GPUs, how)
}

// TPCommTime is the tensor-parallel communication of tokens tokens through
// layers layers on tp GPUs: Megatron's two all-reduces per layer of the
// tokens' hidden states (tokens · hidden · bytes), each a ring costing
// 2(t−1)/t · bytes / bandwidth + 2(t−1) · α (Thakur et al. 2005).
func TPCommTime(tokens, layers, hidden, tp int, bw units.Bandwidth, alpha units.Time) units.Time {
	if tp <= 1 || layers == 0 {
		return 0
	}
	t := float64(tp)
	bytes := float64(tokens * hidden * BytesPerElement)
	one := 2*(t-1)/t*bytes/float64(bw) + 2*(t-1)*alpha.Seconds()
	return units.Round(2 * float64(layers) * one)
}

// SplitLayers spreads layers over stages as evenly as possible, the first
// stages taking one more when they do not divide (the last stage already
// carries the output head).
func SplitLayers(layers, stages int) []int {
	out := make([]int, stages)
	for s := range out {
		out[s] = layers / stages
		if s < layers%stages {
			out[s]++
		}
	}
	return out
}

// SplitRequests spreads requests over microbatches, the first taking one
// more when they do not divide.
func SplitRequests(requests, microbatches int) []int { return SplitLayers(requests, microbatches) }
