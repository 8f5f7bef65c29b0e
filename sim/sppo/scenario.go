package sppo

import (
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Name is the strategy key's value of SPPO's offloaded sequence pipeline.
const Name = "sppo"

// section is the key of the scenario's sppo section.
const section = "sppo"

// Limits of the sppo section.
const (
	MaxStages = 16
	MaxChunks = 256
	MaxTokens = 1 << 24
)

// Settings is the sppo section of a scenario.
type Settings struct {
	// Tokens is the sequence length, 1..MaxTokens, at least Chunks.
	Tokens int
	// Chunks is the number of subsequences the sequence is cut into,
	// 1..MaxChunks.
	Chunks int
	// Offload is the share of each chunk's activations (the last chunk's
	// excepted) moved to host memory, 0..1.
	Offload float64
	// PCIe is the link preset from each GPU to its host: pcie3, pcie4 or
	// pcie5.
	PCIe string
	// HostMemory is the host memory each GPU may fill, 1GiB..16TiB.
	HostMemory units.Bytes
}

// DefaultSettings is a 128k-token sequence in 16 chunks, all but the last
// offloaded over PCIe 4.0 x16, an A100's host link (the A100 is a PCI
// Express Gen4 device: NVIDIA A100 40GB PCIe product brief PB-10137-001;
// the datasheet's "PCIe Gen4: 64GB/s" for the SXM module was not seen
// here, UNCONFIRMED), with 256 GiB of host memory a GPU (a DGX A100 takes
// up to 2 TB of system memory for its 8 GPUs, per secondary sources:
// pcnews.ru's report of NVIDIA's documentation and grokipedia's DGX A100
// page; NVIDIA's datasheet not seen, UNCONFIRMED).
func DefaultSettings() Settings {
	return Settings{Tokens: 131072, Chunks: 16, Offload: 1, PCIe: "pcie4", HostMemory: 256 * units.GiB}
}

// Edit changes s's sppo section in place through f.
func Edit(s *scenario.Scenario, f func(*Settings)) { scenario.Edit(s, section, f) }

// SettingsOf is s's sppo section.
func SettingsOf(s *scenario.Scenario) Settings { return scenario.Get[Settings](s, section) }

var rows = []scenario.Row{
	{Key: "tokens", Param: "sppo_tokens", Help: "sequence length, e.g. 131072", Field: "Tokens"},
	{Key: "chunks", Param: "sppo_chunks", Help: "subsequences, e.g. 16", Field: "Chunks"},
	{Key: "offload", Param: "sppo_offload", Help: "share offloaded, 0..1", Field: "Offload"},
	{Key: "pcie", Param: "sppo_pcie", Help: "pcie3, pcie4 or pcie5", Field: "PCIe"},
	{Key: "host_memory", Param: "host_mem", Help: "per GPU, e.g. 256GiB", Field: "HostMemory"},
}

// Strategy is SPPO's offloaded sequence pipeline as a strategy.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the sppo section; the model is the model section and the
// GPUs cluster.gpu.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: section, Default: DefaultSettings(), Rows: rows}},
		Claims: []string{section}, MinGPUs: 1, MaxGPUs: MaxStages}
}

// Check checks the sppo section, the model and the GPU.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	y := SettingsOf(s)
	for _, c := range [...]struct {
		key    string
		v, max int64
	}{{"sppo.tokens", int64(y.Tokens), MaxTokens}, {"sppo.chunks", int64(y.Chunks), min(MaxChunks, max(int64(y.Tokens), 1))},
		{"sppo.host_memory", int64(y.HostMemory >> 30), 16 << 10}} {
		if c.v < 1 || c.v > c.max {
			bad(c.key, "is %d; allowed 1..%d (host_memory in GiB, chunks at most tokens)", c.v, c.max)
		}
	}
	if !(y.Offload >= 0 && y.Offload <= 1) {
		bad("sppo.offload", "is %v; allowed 0..1", y.Offload)
	}
	if y.PCIe != "pcie3" && y.PCIe != "pcie4" && y.PCIe != "pcie5" {
		bad("sppo.pcie", "is %q; allowed pcie3, pcie4 or pcie5", y.PCIe)
	}
	if s.Cluster.GPU == "" {
		bad("cluster.gpu", "is empty; sppo prices compute on a catalog GPU, e.g. a100-sxm-80gb")
	} else if _, err := hw.LookupGPU(s.Cluster.GPU); err != nil {
		bad("cluster.gpu", "%v", err)
	}
	if s.Cluster.Nodes > 1 {
		bad("cluster.nodes", "is %d; an sppo pipeline is one node", s.Cluster.Nodes)
	}
	if s.Model.IsSynthetic() {
		bad("model.synthetic", "is set; sppo prices a real model shape, give model.preset")
	} else if m, err := s.Model.Resolve(); err != nil {
		bad("model", "%v", err)
	} else if m.IsMoE() || m.IsMLA() {
		bad("model.preset", "is %s; sppo runs dense transformers only", m.Name)
	} else if n := s.NumGPUs(); n > m.Layers {
		bad("gpus", "is %d; a pipeline has at most one stage per layer (%d)", n, m.Layers)
	} else if gpu, err := hw.LookupGPU(s.Cluster.GPU); err == nil && y.Tokens >= 1 && y.Tokens <= MaxTokens {
		// The run's clock and byte counts stay far from overflowing: the
		// sequence's activations (34·h bytes a token and layer) within
		// 1 PiB, its forward and backward (3·(2·P·T + 2·h·T²) a layer,
		// causal) within 10⁷ s of one GPU.
		T, L, h := float64(y.Tokens), float64(m.Layers), float64(m.Hidden)
		flops := 3 * L * (2*float64(workload.Params(m).PerLayer)*T + 2*h*T*T)
		if 34*h*T*L > 1<<50 || flops/(gpu.PeakFLOPS*gpu.Efficiency) > 1e7 {
			bad("sppo.tokens", "is %d; the sequence's activations (%.3g bytes, at most 1 PiB) or compute (%.3g s on one GPU, at most 10⁷) are too large for this model", y.Tokens, 34*h*T*L, flops/(gpu.PeakFLOPS*gpu.Efficiency))
		}
	}
}

// Title is e.g. "SPPO: 131072 tokens in 16 chunks on 4 stages".
func (Strategy) Title(s *scenario.Scenario) string {
	y := SettingsOf(s)
	return fmt.Sprintf("SPPO: %d tokens in %d chunks on %d stages", y.Tokens, y.Chunks, s.NumGPUs())
}

// Describe is e.g. "a 131072-token sequence in 16 chunks through 4
// stages, offloading 100% of its activations over pcie4".
func (Strategy) Describe(s *scenario.Scenario) string {
	y := SettingsOf(s)
	return fmt.Sprintf("a %d-token sequence in %d chunks through %d stages, offloading %.0f%% of its activations over %s", y.Tokens, y.Chunks, s.NumGPUs(), 100*y.Offload, y.PCIe)
}
