package inference

import (
	"fmt"
	"slices"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// Name is the strategy key's value of serving: a batch of requests, a
// prefill of each prompt, then one decode step per output token, on dp
// replicas of a pp-stage, tp-wide pipeline (or, with
// inference.shared_weights, on dp GPUs that share one copy of the layers
// as SiDP does). It reads model.*, parallel.dp, parallel.tp, parallel.pp,
// cluster.gpu and the inference section.
const Name = "inference"

// section is the key of the scenario's inference section.
const section = "inference"

// Where sampling runs and how replicas share weights.
const (
	// SampleGPU samples on the last stage's GPU, in its stream (vLLM's
	// default that SiPipe starts from).
	SampleGPU = "gpu"
	// SampleCPU copies the logits to the host and samples on a CPU lane
	// while the GPU goes on (SiPipe).
	SampleCPU = "cpu"
	// SharedNone gives every replica its own copy of the weights.
	SharedNone = "none"
	// SharedFetch: each GPU owns some layers; the others fetch a layer's
	// weights over NVLink into a double buffer before using it (SiDP's
	// Weight-as-a-Service).
	SharedFetch = "fetch"
	// SharedShip: each GPU owns some layers; the others send the
	// activations to the owner, which applies the layer and sends them
	// back (SiDP's Compute-as-a-Service).
	SharedShip = "ship"
)

// SampleModes and SharedModes list what inference.sampling and
// inference.shared_weights take.
var (
	SampleModes = []string{SampleGPU, SampleCPU}
	SharedModes = []string{SharedNone, SharedFetch, SharedShip}
)

// Limits on an inference scenario: small enough to animate every decode
// step of every microbatch.
const (
	MaxRequests    = 4096
	MaxPrompt      = 1 << 17
	MaxOutput      = 4096
	MaxDecodeSteps = 200_000 // output × microbatches × stages (or layers), the ops of a run
	MaxHostTime    = units.Second
)

// Settings is the inference section of a scenario: a serving run: the requests and the CPU-side costs
// SiPipe is about. All requests arrive at time 0 (an offline batch).
type Settings struct {
	// Requests is the concurrent requests of each replica,
	// 1..MaxRequests.
	Requests int
	// Prompt is each request's prompt length in tokens, 1..MaxPrompt.
	Prompt int
	// Output is the tokens each request generates, 1..MaxOutput; the
	// first comes from the prefill, each later one from a decode step.
	Output int
	// Microbatches is how many groups a replica's requests are split
	// into, each flowing through the pipeline on its own,
	// 1..requests; 0 means parallel.pp (one per stage keeps a balanced
	// pipeline full).
	Microbatches int
	// Sampling is where the next token is drawn from the logits: gpu
	// (on the last stage's stream) or cpu (on the host, SiPipe).
	Sampling string
	// SampleTime is the GPU time to sample one microbatch's tokens,
	// 0..MaxHostTime.
	SampleTime units.Time
	// CPUSampleTime is the host time to sample one microbatch's tokens,
	// 0..MaxHostTime; the logits' copy over PCIe is added to it.
	CPUSampleTime units.Time
	// HostTime is the CPU work before each op of each stage (building
	// the batch's metadata, launching kernels), 0..MaxHostTime. Without
	// AsyncHost the GPU waits for it: an intra-stage bubble.
	HostTime units.Time
	// AsyncHost prepares each op's host work while the GPU runs the
	// previous one (SiPipe's token-safe execution), hiding HostTime.
	AsyncHost bool
	// SendOverhead is the fixed cost of each activation send between
	// stages besides the link's α (serialising tensors and metadata),
	// 0..MaxHostTime; SiPipe's structure-aware transmission cuts it.
	SendOverhead units.Time
	// SharedWeights is none, fetch or ship: whether the dp replicas of a
	// node share one copy of the layers (SiDP), and how.
	SharedWeights string
}

// DefaultSettings is the inference section of a default scenario.
func DefaultSettings() Settings {
	return Settings{Requests: 8, Prompt: 512, Output: 32, Sampling: SampleGPU, SharedWeights: SharedNone,
		SampleTime: 300 * units.Microsecond, CPUSampleTime: 400 * units.Microsecond}
}

// SettingsOf is s's inference section.
func SettingsOf(s *scenario.Scenario) Settings { return scenario.Get[Settings](s, section) }

// SetSettings stores in as s's inference section.
func SetSettings(s *scenario.Scenario, in Settings) { scenario.Put(s, section, in) }

// fields are the inference section's rows of the field table, in order.
var rows = []scenario.Row{
	{Key: "requests", Param: "requests", Field: "Requests"},
	{Key: "prompt", Param: "prompt", Field: "Prompt"},
	{Key: "output", Param: "output", Field: "Output"},
	{Key: "microbatches", Param: "inf_microbatches", Field: "Microbatches"},
	{Key: "sampling", Param: "sampling", Help: "gpu or cpu", Field: "Sampling"},
	{Key: "sample_time", Param: "sample_time", Field: "SampleTime"},
	{Key: "cpu_sample_time", Param: "cpu_sample_time", Field: "CPUSampleTime"},
	{Key: "host_time", Param: "host_time", Field: "HostTime"},
	{Key: "async_host", Param: "async_host", Help: "true or false", Field: "AsyncHost"},
	{Key: "send_overhead", Param: "send_overhead", Field: "SendOverhead"},
	{Key: "shared_weights", Param: "shared_weights", Help: "none, fetch or ship", Field: "SharedWeights"},
}

// Strategy is serving as a strategy of the scenario: its inference
// section, its checks and its names.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the inference section and the shared ones it reads.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: section, Default: DefaultSettings(), Rows: rows}}, MinGPUs: 1}
}

// MicrobatchCount is the number of microbatches a replica's requests are
// split into.
func MicrobatchCount(s *scenario.Scenario) int {
	in := SettingsOf(s)
	if in.Microbatches > 0 {
		return in.Microbatches
	}
	if in.SharedWeights != SharedNone {
		return 1
	}
	return max(1, min(s.Parallel.PP, in.Requests))
}

// Check checks an inference scenario: the model, the plan on one node of
// catalog GPUs, the requests and the CPU-side costs.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	in, p := SettingsOf(s), s.Parallel
	if s.Model.IsSynthetic() {
		bad("model.synthetic", "is set; inference prices a real model shape, give model.preset")
	} else if s.Model.Preset == "" && (s.Model.Layers == 0 || s.Model.Hidden == 0 || s.Model.Heads == 0 || s.Model.Vocab == 0) {
		bad("model.preset", "is empty; give a preset (e.g. llama3-8b) or a full shape (layers, hidden, heads, vocab, seq_len)")
	} else if m, err := s.Model.Resolve(); err != nil {
		bad("model", "%v", err)
	} else if m.IsMoE() || m.IsMLA() {
		bad("model.preset", "is %s, a mixture of experts or MLA model; serving models only dense transformers (training runs it)", m.Name)
	} else {
		if p.TP >= 1 && m.KVHeadCount()%p.TP != 0 {
			bad("parallel.tp", "is %d; it must divide the model's %d key/value heads", p.TP, m.KVHeadCount())
		}
		if p.PP >= 1 && p.PP > m.Layers {
			bad("parallel.pp", "is %d; at most the model's %d layers", p.PP, m.Layers)
		}
		steps := in.Output * max(1, MicrobatchCount(s)) * max(1, p.PP) * max(1, p.DP)
		if in.SharedWeights != SharedNone {
			steps = in.Output * max(1, MicrobatchCount(s)) * m.Layers * max(1, p.DP)
		}
		if in.Output >= 1 && steps > MaxDecodeSteps {
			bad("inference.output", "gives %d ops (output × microbatches × stages or layers × replicas); at most %d", steps, MaxDecodeSteps)
		}
	}
	if s.Cluster.GPU == "" {
		bad("cluster.gpu", "is empty; inference needs a catalog GPU for its HBM size and bandwidth, e.g. h100-sxm")
	}
	if s.Cluster.Nodes > 1 {
		bad("cluster.nodes", "is %d; an inference run is one node", s.Cluster.Nodes)
	}
	for _, f := range []struct {
		field string
		v     int
	}{{"parallel.dp", p.DP}, {"parallel.tp", p.TP}, {"parallel.pp", p.PP}} {
		if f.v < 1 || f.v > scenario.MaxGPUs {
			bad(f.field, "is %d; allowed 1..%d", f.v, scenario.MaxGPUs)
		}
	}
	if p.CP != 1 || p.EP != 1 || p.ZeRO != 0 {
		bad("parallel.cp", "cp, ep and zero must be 1, 1 and 0 for inference; got %d, %d, %d", p.CP, p.EP, p.ZeRO)
	}
	if n := p.DP * p.TP * p.PP; p.DP >= 1 && p.TP >= 1 && p.PP >= 1 && n != s.NumGPUs() {
		bad("gpus", "is %d; inference needs dp × tp × pp = %d GPUs", s.NumGPUs(), n)
	}
	if in.Requests < 1 || in.Requests > MaxRequests {
		bad("inference.requests", "is %d; allowed 1..%d", in.Requests, MaxRequests)
	}
	if in.Prompt < 1 || in.Prompt > MaxPrompt {
		bad("inference.prompt", "is %d; allowed 1..%d", in.Prompt, MaxPrompt)
	}
	if in.Output < 1 || in.Output > MaxOutput {
		bad("inference.output", "is %d; allowed 1..%d", in.Output, MaxOutput)
	}
	if in.Microbatches < 0 || in.Microbatches > max(in.Requests, 1) {
		bad("inference.microbatches", "is %d; allowed 1..%d (the requests), or 0 for parallel.pp", in.Microbatches, in.Requests)
	}
	if !slices.Contains(SampleModes, in.Sampling) {
		bad("inference.sampling", "%q is not known; allowed: %s", in.Sampling, strings.Join(SampleModes, ", "))
	}
	if !slices.Contains(SharedModes, in.SharedWeights) {
		bad("inference.shared_weights", "%q is not known; allowed: %s", in.SharedWeights, strings.Join(SharedModes, ", "))
	} else if in.SharedWeights != SharedNone && (p.PP != 1 || p.TP != 1) {
		bad("inference.shared_weights", "is %s with pp %d and tp %d; shared weights replace the pipeline: set pp and tp to 1 and dp to the GPUs", in.SharedWeights, p.PP, p.TP)
	}
	for _, f := range []struct {
		field string
		v     units.Time
	}{{"inference.sample_time", in.SampleTime}, {"inference.cpu_sample_time", in.CPUSampleTime},
		{"inference.host_time", in.HostTime}, {"inference.send_overhead", in.SendOverhead}} {
		if f.v < 0 || f.v > MaxHostTime {
			bad(f.field, "is %v; allowed 0..%v", f.v, MaxHostTime)
		}
	}
}

// Describe is e.g. "serving llama3-8b on 4 h100-sxm: dp 1 × tp 1 × pp 4,
// 8 requests of 256+12 tokens per replica in 4 microbatches, sampling on gpu".
func (Strategy) Describe(s *scenario.Scenario) string {
	in, p := SettingsOf(s), s.Parallel
	var b strings.Builder
	fmt.Fprintf(&b, "serving %s on %d %s: ", s.Model.Label(), s.NumGPUs(), s.Cluster.GPU)
	if in.SharedWeights != SharedNone {
		fmt.Fprintf(&b, "%d replicas sharing the layers (%s)", p.DP, in.SharedWeights)
	} else {
		fmt.Fprintf(&b, "dp %d × tp %d × pp %d", p.DP, p.TP, p.PP)
	}
	mb := "microbatches"
	if MicrobatchCount(s) == 1 {
		mb = "microbatch"
	}
	fmt.Fprintf(&b, ", %d requests of %d+%d tokens per replica in %d %s, sampling on %s",
		in.Requests, in.Prompt, in.Output, MicrobatchCount(s), mb, in.Sampling)
	if in.AsyncHost {
		b.WriteString(", host work overlapped")
	}
	return b.String()
}

// Title is e.g. "Serving llama3-8b on 4 GPUs (dp 1, tp 1, pp 4)".
func (Strategy) Title(s *scenario.Scenario) string {
	p := s.Parallel
	if in := SettingsOf(s); in.SharedWeights != SharedNone {
		return fmt.Sprintf("Serving %s: %d GPUs sharing weights (%s)", s.Model.Label(), s.NumGPUs(), in.SharedWeights)
	}
	return fmt.Sprintf("Serving %s on %s (dp %d, tp %d, pp %d)", s.Model.Label(), scenario.GPUCount(s.NumGPUs()), p.DP, p.TP, p.PP)
}

// Edit changes s's inference section in place through f.
func Edit(s *scenario.Scenario, f func(*Settings)) { scenario.Edit(s, section, f) }
