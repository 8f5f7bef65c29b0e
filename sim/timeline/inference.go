package timeline

import (
	"fmt"
	"slices"

	"paraplay/sim/units"
)

// Span kinds of a serving run.
const (
	// Prefill runs a microbatch's prompts through a stage.
	Prefill Kind = "prefill"
	// Decode is one decode step of a microbatch on a stage (or one
	// layer of it under shared weights).
	Decode Kind = "decode"
	// Sample draws the next token from the logits, on the last stage's
	// GPU or on a CPU lane.
	Sample Kind = "sample"
	// Host is CPU-side work (building the step's inputs, launching its
	// kernels) that the GPU waits for: an intra-stage bubble drawn as a
	// span on the GPU's stream.
	Host Kind = "host"
)

// The bubble kinds of pipeline-parallel inference, as SiPipe (He, Zhao &
// Cao 2025) names them, and the pipeline's fill and drain.
const (
	// BubbleImbalance is a stage waiting for a slower stage's compute.
	BubbleImbalance = "imbalance"
	// BubbleIntraStage is a GPU waiting for its own host: CPU work before
	// an op, or a sample drawn on the CPU.
	BubbleIntraStage = "intra-stage"
	// BubbleInterStage is a GPU waiting for an activation send between
	// stages: the send's overhead and its time on the link.
	BubbleInterStage = "inter-stage"
	// BubbleFill is the idle time before a GPU's first op and after its
	// last: the pipeline filling and draining, not a steady-state bubble.
	BubbleFill = "fill-drain"
)

// BubbleKinds lists the kinds in the order summaries print them.
var BubbleKinds = []string{BubbleImbalance, BubbleIntraStage, BubbleInterStage, BubbleFill}

// Inference is the record of a serving run.
type Inference struct {
	// Replicas, Stages and TP are the plan: dp × pp × tp GPUs, or
	// Replicas GPUs sharing one copy of the layers (Shared).
	Replicas int `json:"replicas"`
	Stages   int `json:"stages"`
	TP       int `json:"tp"`
	// Requests is the requests of all replicas; Prompt and Output are
	// each request's prompt and generated tokens.
	Requests int `json:"requests"`
	Prompt   int `json:"prompt"`
	Output   int `json:"output"`
	// Sampling is "gpu" or "cpu"; Shared is "none", "fetch" or "ship".
	Sampling string `json:"sampling"`
	Shared   string `json:"shared"`
	// KVBytesPerToken is, by GPU, the cache one token of a request adds
	// there (0 on CPU lanes).
	KVBytesPerToken []units.Bytes `json:"kv_bytes_per_token"`
	// KVCapacity is, by GPU, the tokens of cache that fit beside its
	// weights and workspace (0 on CPU lanes).
	KVCapacity []int64 `json:"kv_capacity_tokens"`
	// Microbatches has one entry per replica and microbatch.
	Microbatches []ServedBatch `json:"microbatches"`
	// Bubbles are the GPUs' idle intervals, each with its kind, sorted by
	// GPU then start.
	Bubbles []Bubble `json:"bubbles"`
}

// ServedBatch is one microbatch of requests served together.
type ServedBatch struct {
	// Replica and Index name it; Requests is how many requests it holds.
	Replica  int `json:"replica"`
	Index    int `json:"index"`
	Requests int `json:"requests"`
	// FirstToken is when its first output token was sampled (the time to
	// first token, as all requests arrive at 0); Done when its last was.
	FirstToken units.Time `json:"first_token"`
	Done       units.Time `json:"done"`
}

// Bubble is an interval in which a GPU did no model work, and why.
type Bubble struct {
	GPU   int        `json:"gpu"`
	Kind  string     `json:"kind"`
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
}

// Check checks the record against the run: one cache size and capacity per
// GPU, bubbles and microbatches inside the run.
func (in *Inference) Check(tl *Timeline) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, errorf(format, args)) }
	if len(in.KVBytesPerToken) != len(tl.GPUs) || len(in.KVCapacity) != len(tl.GPUs) {
		bad("%d per-token sizes and %d capacities for %d GPUs", len(in.KVBytesPerToken), len(in.KVCapacity), len(tl.GPUs))
	}
	if in.Prompt < 1 || in.Output < 1 {
		bad("%d prompt and %d output tokens a request", in.Prompt, in.Output)
	}
	for g := range min(len(in.KVBytesPerToken), len(in.KVCapacity)) {
		if in.KVBytesPerToken[g] < 0 || in.KVCapacity[g] < 0 {
			bad("GPU %d: %v a token, room for %d tokens", g, in.KVBytesPerToken[g], in.KVCapacity[g])
		}
	}
	for i, b := range in.Bubbles {
		if !tl.isGPU(b.GPU) || b.Start < 0 || b.End <= b.Start || b.End > tl.End || !slices.Contains(BubbleKinds, b.Kind) {
			bad("bubbles[%d]: %s on GPU %d [%v, %v] outside the run", i, b.Kind, b.GPU, b.Start, b.End)
		}
	}
	requests := 0
	for i, m := range in.Microbatches {
		if m.FirstToken <= 0 || m.Done < m.FirstToken || m.Done > tl.End || m.Requests < 1 || m.Replica < 0 || m.Replica >= in.Replicas {
			bad("microbatches[%d]: replica %d, first token %v, done %v, %d requests", i, m.Replica, m.FirstToken, m.Done, m.Requests)
		}
		requests += m.Requests
	}
	if requests != in.Requests {
		bad("the microbatches hold %d requests, not %d", requests, in.Requests)
	}
	return errs
}

// InferenceSummary is the headline of a serving run.
type InferenceSummary struct {
	// Requests, Prompt and Output as in Inference.
	Requests int `json:"requests"`
	Prompt   int `json:"prompt"`
	Output   int `json:"output"`
	// TokensPerSecond is the output tokens of all requests over the run.
	TokensPerSecond float64 `json:"tokens_per_s"`
	// TTFT is the mean time to first token over requests; TPOT the mean
	// time per output token after the first, (done − first) / (output − 1).
	TTFT units.Time `json:"ttft_ns"`
	TPOT units.Time `json:"tpot_ns"`
	// KVCapacity is the fewest tokens of cache any GPU holds; in requests
	// of prompt + output tokens, KVRequests (per replica).
	KVCapacity int64 `json:"kv_capacity_tokens"`
	KVRequests int64 `json:"kv_capacity_requests"`
	// KVBytesPerToken is the largest per-token cache on one GPU.
	KVBytesPerToken units.Bytes `json:"kv_bytes_per_token"`
	// Bubbles is, by kind, the idle time summed over GPUs; BubbleShare is
	// that over GPUs × run time.
	Bubbles     map[string]units.Time `json:"bubbles_ns"`
	BubbleShare map[string]float64    `json:"bubble_share"`
}

// Report is the Inference part of the summary: an *InferenceSummary.
func (in *Inference) Report(tl *Timeline, _ *Summary) Report {
	s := &InferenceSummary{Requests: in.Requests, Prompt: in.Prompt, Output: in.Output,
		Bubbles: map[string]units.Time{}, BubbleShare: map[string]float64{}}
	var ttft, tpot float64
	for _, m := range in.Microbatches {
		ttft += float64(m.Requests) * float64(m.FirstToken)
		if in.Output > 1 {
			tpot += float64(m.Requests) * float64(m.Done-m.FirstToken) / float64(in.Output-1)
		}
	}
	if in.Requests > 0 {
		s.TTFT, s.TPOT = units.Time(ttft/float64(in.Requests)+0.5), units.Time(tpot/float64(in.Requests)+0.5)
	}
	if tl.End > 0 {
		s.TokensPerSecond = float64(in.Requests*in.Output) / tl.End.Seconds()
	}
	s.KVCapacity = -1
	gpus := 0
	for g, c := range in.KVCapacity {
		if g >= len(in.KVBytesPerToken) || in.KVBytesPerToken[g] == 0 {
			continue
		}
		gpus++
		if s.KVCapacity < 0 || c < s.KVCapacity {
			s.KVCapacity = c
		}
		s.KVBytesPerToken = max(s.KVBytesPerToken, in.KVBytesPerToken[g])
	}
	s.KVCapacity = max(s.KVCapacity, 0)
	if tokens := int64(in.Prompt) + int64(in.Output); tokens > 0 {
		s.KVRequests = s.KVCapacity / tokens
	}
	for _, k := range BubbleKinds {
		s.Bubbles[k] = 0
	}
	for _, b := range in.Bubbles {
		s.Bubbles[b.Kind] += b.End - b.Start
	}
	if d := float64(gpus) * float64(tl.End); d > 0 {
		for k, v := range s.Bubbles {
			s.BubbleShare[k] = float64(v) / d
		}
	}
	return s
}

// errorf is fmt.Errorf of format and args. It is not inlined: validators call it
// from dozens of places, and the expanded call at each costs the
// browser's download a few hundred bytes.
//
//go:noinline
func errorf(format string, args []any) error { return fmt.Errorf(format, args...) }
