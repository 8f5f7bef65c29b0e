package scenario

import (
	"fmt"
	"strings"

	"paraplay/sim/parallel"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Model is the network a training scenario trains: a preset from the
// catalog (see workload.Models), any of whose shape fields may be
// overridden beside it, or a synthetic model whose op times are given.
type Model struct {
	// Preset names a model preset, e.g. "llama3-8b" (URL model).
	Preset string `yaml:"preset" json:"preset"`
	// Layers overrides the number of transformer layers (0 = the preset's).
	Layers int `yaml:"layers" json:"layers"`
	// Hidden overrides the model width (0 = the preset's).
	Hidden int `yaml:"hidden" json:"hidden"`
	// Heads overrides the number of attention heads (0 = the preset's).
	Heads int `yaml:"heads" json:"heads"`
	// KVHeads overrides the number of key/value heads (0 = the preset's).
	KVHeads int `yaml:"kv_heads" json:"kv_heads"`
	// FFNHidden overrides the MLP width (0 = the preset's).
	FFNHidden int `yaml:"ffn_hidden" json:"ffn_hidden"`
	// Vocab overrides the vocabulary size (0 = the preset's).
	Vocab int `yaml:"vocab" json:"vocab"`
	// SeqLen overrides the sequence length (0 = the preset's).
	SeqLen int `yaml:"seq_len" json:"seq_len"`
	// Synthetic, when its Forward is set, replaces the model by fixed op
	// times per microbatch per pipeline stage: the pipeline lessons.
	Synthetic Synthetic `yaml:"synthetic" json:"synthetic"`
	// Attention is the attention kernel: "flash" (the default, also
	// when empty: FlashAttention keeps no s×s tensor for the backward
	// pass), "eager" (Korthikanti et al. 2022's layer, which keeps the
	// softmax and its dropout) or "mla" (flash on multi-head latent
	// attention's projections, which a preset such as deepseek-v3 or the
	// mla keys give; an MLA model runs them under flash too).
	Attention string `yaml:"attention" json:"attention,omitempty"`
	// MoE overrides the preset's mixture of experts and sets its routing
	// (moe.go).
	MoE MoE `yaml:"moe" json:"moe,omitempty"`
	// MLA overrides the preset's latent attention (0 = the preset's).
	MLA workload.MLA `yaml:"mla" json:"mla,omitempty"`
	// MTP is the multi-token prediction modules (0 = the preset's).
	MTP int `yaml:"mtp" json:"mtp,omitempty"`
}

// Eager reports whether the model runs eager attention (Model.Attention).
func (m Model) Eager() bool { return m.Attention == "eager" }

// Synthetic gives a pipeline stage's op times directly.
type Synthetic struct {
	// Forward is one microbatch's forward pass through one stage.
	Forward units.Time `yaml:"forward" json:"forward"`
	// BackwardInput is its backward for the input (B).
	BackwardInput units.Time `yaml:"backward_input" json:"backward_input"`
	// BackwardWeight is its backward for the weights (W).
	BackwardWeight units.Time `yaml:"backward_weight" json:"backward_weight"`
}

// Parallel is a hybrid parallel plan.
type Parallel struct {
	// DP is the number of data-parallel replicas.
	DP int `yaml:"dp" json:"dp"`
	// TP is the tensor-parallel degree.
	TP int `yaml:"tp" json:"tp"`
	// PP is the number of pipeline stages.
	PP int `yaml:"pp" json:"pp"`
	// CP is the context-parallel degree.
	CP int `yaml:"cp" json:"cp"`
	// EP is the expert-parallel degree: each expert's GPU group spans ep
	// data-parallel ranks (with etp < tp, tensor-parallel ones too), so
	// ep·etp must divide tp·dp and ep the model's experts.
	EP int `yaml:"ep" json:"ep"`
	// ETP is the expert tensor-parallel degree, each expert's weights
	// split etp ways, 1..tp dividing tp; 0 means tp (Megatron-Core's
	// default).
	ETP int `yaml:"etp" json:"etp,omitempty"`
	// ZeRO is the ZeRO stage 0..3 (3 = FSDP-style sharded parameters).
	ZeRO int `yaml:"zero" json:"zero"`
	// ZeROGroup is g, the GPUs the ZeRO stage shards over: 0 (the
	// default) shards over the whole data-parallel group; a divisor g of
	// dp shards within groups of g consecutive replicas and replicates
	// across the dp/g groups (hierarchical ZeRO: FSDP's hybrid sharding,
	// ZeRO++'s hpZ, AsyncHZP).
	ZeROGroup int `yaml:"zero_group" json:"zero_group,omitempty"`
	// ZeROLayers is k, the transformer layers the ZeRO stage shards: 0
	// (the default) shards them all; 1 ≤ k ≤ model.layers shards the
	// embedding, the output head and the first k layers and replicates
	// the others, whole states and all-reduced gradients (per-layer
	// sharding as in OSDP, Jiang et al. 2023).
	ZeROLayers int `yaml:"zero_layers" json:"zero_layers,omitempty"`
	// Schedule is the pipeline schedule: gpipe, 1f1b, interleaved, zb-h1,
	// zb-h2, zb-v, dualpipev, pipedream-async or local-loss (every stage
	// trains against its own local loss; its backward waits for no gradient).
	Schedule string `yaml:"schedule" json:"schedule"`
	// VirtualStages is v, the model chunks per device (interleaved: ≥ 2).
	VirtualStages int `yaml:"virtual_stages" json:"virtual_stages"`
	// Microbatches is m, the microbatches per iteration per replica.
	Microbatches int `yaml:"microbatches" json:"microbatches"`
	// MicroBatchSize is b, the sequences in one microbatch.
	MicroBatchSize int `yaml:"micro_batch_size" json:"micro_batch_size"`
	// SequenceParallel turns TP's all-reduces into reduce-scatter +
	// all-gather and splits the layer norms' activations (Korthikanti 2022).
	SequenceParallel bool `yaml:"sequence_parallel" json:"sequence_parallel"`
	// TPCommOverlap overlaps each tensor-parallel all-gather and
	// reduce-scatter with the GEMM beside it (Megatron-Core's
	// tp_comm_overlap through Transformer Engine), off by default as in
	// Megatron; it needs sequence_parallel.
	TPCommOverlap bool `yaml:"tp_comm_overlap" json:"tp_comm_overlap,omitempty"`
	// GradReduce is when the data-parallel gradient collectives start:
	// overlap (the default, "" alike: PyTorch DDP's buckets, each as soon
	// as the last backward has produced it) or after_backward (one
	// collective per model chunk once the device's last backward of the
	// iteration is done, after the pipeline flush, as Megatron-LM's local
	// DDP of 2021 did: its train_step all-reduces after
	// forward_backward_func returns).
	GradReduce string `yaml:"grad_reduce" json:"grad_reduce,omitempty"`
	// P2P is how a pipeline message holds its GPUs: async (the default,
	// "" alike: the sender computes on while it is in flight) or blocking
	// (the sender's next op waits until it has landed, and the receiver
	// first all-gathers the tensor-parallel slices it came in, as
	// Megatron-LM's 2021 p2p_communication did with torch.cuda.synchronize
	// after each exchange and its scatter/gather of the tp ranks' slices),
	// or blocking_list (blocking, with the 2021 code's list-based
	// all-gather, which copies the gathered tensor once more).
	P2P string `yaml:"p2p" json:"p2p,omitempty"`
	// Cyclic staggers the data-parallel replicas (Fournier & Oyallon
	// 2024, cyclic data parallelism): replica r starts r/dp of a step
	// after replica 0, and the gradients travel from replica to replica
	// as point-to-point messages instead of one all-reduce, applied one
	// step late.
	Cyclic bool `yaml:"cyclic" json:"cyclic,omitempty"`
	// Recompute is none, selective or full activation recomputation.
	Recompute string `yaml:"recompute" json:"recompute"`
	// RecomputeModules, with recompute selective, lists what selective
	// recomputation re-runs, comma-separated, in Megatron-Core's names:
	// core_attn (the default), moe_act, layernorm, mla_up_proj.
	RecomputeModules string `yaml:"recompute_modules" json:"recompute_modules,omitempty"`
	// Order lists the dimensions innermost first, e.g. "tp,cp,pp,dp" (the
	// default, Megatron's): which ranks are neighbours on the hardware.
	Order string `yaml:"order" json:"order"`
	// Partition is how layers are split over pipeline stages: equal
	// (the same count each, Megatron's) or balanced (sized to the speed
	// of the GPUs that run each stage, as HAPT and HARP do on mixed
	// clusters) or operators (balanced below layer granularity: a stage
	// boundary may fall between a layer's attention block and its MLP,
	// HAPT's operator-level split; a real dense model of fixed-length
	// sequences).
	Partition string `yaml:"partition" json:"partition"`
	// LayersPerStage, when set, is the number of layers of each model
	// stage (pp·v of them, in model order; the first also holds the
	// embedding, the last the output head), e.g. Llama 3 405B's
	// 7,8*14,7 (Dubey et al. 2024, §3.3.2). Empty: the equal split.
	LayersPerStage []int `yaml:"layers_per_stage" json:"layers_per_stage,omitempty"`
	// FirstLastFewer gives the first and last model stages this many
	// fewer layers than the others, for the embedding and the output head
	// they also hold (Llama 3 used 1); 0: the equal split.
	FirstLastFewer int `yaml:"first_last_fewer" json:"first_last_fewer,omitempty"`
	// Mesh names the plan as a device mesh on a TPU slice (data, fsdp,
	// seq, model), which sets dp, tp, cp and pp (and zero 3 for fsdp).
	Mesh Mesh `yaml:"mesh" json:"mesh,omitempty"`
}

// ShardGroup is the number of data-parallel replicas the ZeRO stage
// shards over: zero_group, or dp when it is 0.
func (p Parallel) ShardGroup() int {
	if p.ZeROGroup > 0 {
		return p.ZeROGroup
	}
	return p.DP
}

// Plan is the plan's layout as package parallel takes it.
func (p Parallel) Plan() parallel.Plan {
	pl := parallel.Plan{DP: p.DP, TP: p.TP, PP: p.PP, CP: p.CP, EP: p.EP, ETP: p.ETP}
	if p.Order != "" {
		for _, d := range strings.Split(p.Order, ",") {
			pl.Order = append(pl.Order, parallel.Dim(strings.TrimSpace(d)))
		}
	}
	return pl
}

// Training holds how the model is optimised.
type Training struct {
	// Precision is the number format of the forward and backward
	// compute: bf16 or fp16, or fp8 (the linear layers' GEMMs in FP8 on
	// GPUs with FP8 tensor cores, the rest in bf16; master weights and
	// optimizer states stay as in mixed precision).
	Precision string `yaml:"precision" json:"precision"`
	// Optimizer is adam (mixed precision, 12 bytes of state per
	// parameter as in ZeRO's K = 12).
	Optimizer string `yaml:"optimizer" json:"optimizer"`
	// Efficiency overrides the GPU preset's assumed fraction of peak
	// FLOP/s, 0 < e ≤ 1 (0 = the preset's).
	Efficiency float64 `yaml:"efficiency" json:"efficiency"`
	// GradAccumulation is how weight gradients reach the fp32 main
	// gradient: fused (the weight-gradient GEMM accumulates into it, the
	// default, "" alike) or unfused (a separate add kernel per weight per
	// microbatch, as Megatron-LM before February 2022).
	GradAccumulation string `yaml:"grad_accumulation" json:"grad_accumulation,omitempty"`
	// FP8ActivationCache keeps, with precision fp8, two more activations
	// in low precision for the backward pass, as DeepSeek-V3 does
	// (DeepSeek-AI 2024, §3.3.3): the experts' SwiGLU inputs in FP8, and
	// the attention output in a 12-bit E5M6 copy that serves both the
	// output projection and the attention backward.
	FP8ActivationCache bool `yaml:"fp8_activation_cache" json:"fp8_activation_cache,omitempty"`
	// Tokens is the token budget of the whole run, 0..cost.MaxTokens
	// (0 = none): with it the summary turns the iteration into days,
	// GPU-hours, dollars, energy and emissions (package cost; written
	// with k, M, B, T or P, e.g. 15T).
	Tokens float64 `yaml:"tokens" json:"tokens,omitempty"`
}

// ChunksArg is the v to pass to pipeline.New: virtual_stages for the
// interleaved schedule, and 0 (the schedule's own: 1, or 2 for the V
// shapes) for the others unless virtual_stages says otherwise.
func (p Parallel) ChunksArg() int {
	if p.Schedule != "interleaved" && p.VirtualStages == 1 {
		return 0
	}
	return p.VirtualStages
}

// IsSynthetic reports whether the model is given by op times.
func (m Model) IsSynthetic() bool { return m.Synthetic.Forward > 0 }

// Label names the model as run, for titles: its preset ("llama3-8b"),
// the preset with the keys that change it ("llama3-8b (modified: layers
// 16)"), "Synthetic model" or "32-layer model".
func (m Model) Label() string {
	switch {
	case m.IsSynthetic():
		return "Synthetic model"
	case m.Preset != "":
		if changes := m.Overrides(); len(changes) > 0 {
			return fmt.Sprintf("%s (modified: %s)", m.Preset, strings.Join(changes, ", "))
		}
		return m.Preset
	}
	return fmt.Sprintf("%d-layer model", m.Layers)
}

// Overrides lists the shape keys that set a value other than the
// preset's, as "layers 16", in the order the model section lists them;
// nil without a preset (or with an unknown one, which Check reports).
func (m Model) Overrides() []string {
	p, err := workload.LookupModel(m.Preset)
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range []struct {
		key       string
		set, base int
	}{{"layers", m.Layers, p.Layers}, {"hidden", m.Hidden, p.Hidden}, {"heads", m.Heads, p.Heads},
		{"kv_heads", m.KVHeads, p.KVHeads}, {"ffn_hidden", m.FFNHidden, p.FFNHidden}, {"vocab", m.Vocab, p.Vocab},
		{"seq_len", m.SeqLen, p.SeqLen}, {"experts", m.MoE.Experts, p.MoE.Experts}, {"top_k", m.MoE.TopK, p.MoE.TopK},
		{"expert_ffn_hidden", m.MoE.ExpertFFNHidden, p.MoE.ExpertFFNHidden}, {"shared_experts", m.MoE.SharedExperts, p.MoE.SharedExperts},
		{"dense_layers", m.MoE.DenseLayers, p.MoE.DenseLayers}, {"mtp", m.MTP, p.MTP}} {
		if f.set > 0 && f.set != f.base {
			out = append(out, fmt.Sprintf("%s %d", f.key, f.set))
		}
	}
	return out
}

// Resolve returns the workload model: the preset with the overrides
// applied. A synthetic model has none.
func (m Model) Resolve() (workload.Model, error) {
	if m.IsSynthetic() {
		return workload.Model{}, fmt.Errorf("model: synthetic models have no shape")
	}
	var w workload.Model
	if m.Preset != "" {
		p, err := workload.LookupModel(m.Preset)
		if err != nil {
			return w, err
		}
		w = p
	} else {
		w = workload.Model{Name: "custom", FFN: "gelu", Norm: "layernorm", Bias: true, Position: "learned", TiedEmbeddings: true}
	}
	set := func(dst *int, v int) {
		if v > 0 {
			*dst = v
		}
	}
	set(&w.Layers, m.Layers)
	set(&w.Hidden, m.Hidden)
	set(&w.Heads, m.Heads)
	set(&w.KVHeads, m.KVHeads)
	set(&w.FFNHidden, m.FFNHidden)
	set(&w.Vocab, m.Vocab)
	set(&w.SeqLen, m.SeqLen)
	m.resolveMoE(&w, set)
	return w, w.Validate()
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// PerNode is the number of GPUs in one server.
func (s *Scenario) PerNode() int {
	if s.Cluster.GPUsPerNode > 0 {
		return s.Cluster.GPUsPerNode
	}
	return s.NumGPUs()
}

// Warnings lists what is valid but probably a mistake in the parallel
// plan, e.g. a tensor-parallel group larger than a server.
func (s *Scenario) Warnings() []string {
	p := s.Parallel
	w, _ := p.Plan().Check(s.NumGPUs(), s.PerNode())
	return w
}
