package hw

import (
	"fmt"
	"math"

	"paraplay/sim/units"
)

// GPU describes one accelerator model: what its datasheet promises and how
// much of that the simulator assumes a training run gets.
type GPU struct {
	// The blank field makes the type incomparable, so the compiler generates no
	// equality code for it and for each catalog array literal of it (about
	// 7 KB of the gzipped wasm); compare presets by Name.
	_ [0]func()
	// Name is the preset's key: lower case, words joined by hyphens
	// ("h100-sxm", "a100-sxm-80gb").
	Name string `json:"name"`
	// Vendor is the maker, e.g. "NVIDIA" or "AMD".
	Vendor string `json:"vendor"`
	// DisplayName is the product name a reader knows.
	DisplayName string `json:"display_name"`
	// PeakFLOPS is the peak DENSE tensor-core throughput in FLOP/s at
	// Precision, without the 2:4 structured-sparsity doubling that
	// datasheets print in their headline rows.
	PeakFLOPS float64 `json:"peak_flops"`
	// Precision is the number format of PeakFLOPS: "bf16", or "fp16" for
	// GPUs whose tensor cores have no bf16 (V100, T4).
	Precision string `json:"precision"`
	// PeakFP8 is the peak DENSE FP8 tensor-core throughput in FLOP/s
	// (E4M3/E5M2 inputs, higher-precision accumulation), again without
	// the 2:4 sparsity doubling; 0 for a GPU without FP8 tensor cores
	// (V100, T4, A100, A10G). Source gives its datasheet figure.
	PeakFP8 float64 `json:"peak_fp8_flops,omitempty"`
	// HBM is the device memory capacity (HBM, or GDDR6 on T4 and A10G).
	HBM units.Bytes `json:"hbm_bytes"`
	// HBMBandwidth is the peak device memory bandwidth.
	HBMBandwidth units.Bandwidth `json:"hbm_bandwidth_bytes_per_s"`
	// Efficiency is the ASSUMED fraction of PeakFLOPS that the large matrix
	// multiplications of transformer training reach, in (0, 1]. It is not a
	// datasheet number; EfficiencyBasis says what it rests on, and a
	// scenario may set its own.
	Efficiency float64 `json:"efficiency"`
	// EfficiencyBasis explains Efficiency: the published training report
	// it is read from, or why it is a guess.
	EfficiencyBasis string `json:"efficiency_basis"`
	// Link is the name of the link preset (see LookupLink) that joins the
	// GPUs of this accelerator's usual server.
	Link string `json:"link"`
	// GPUsPerNode is the number of GPUs in that usual server.
	GPUsPerNode int `json:"gpus_per_node"`
	// Server names that usual server, e.g. "NVIDIA DGX H100".
	Server string `json:"server"`
	// Source cites the vendor document for PeakFLOPS, HBM and HBMBandwidth.
	Source string `json:"source"`
	// TDP is the board's maximum power in watts (its datasheet's thermal
	// design power); IdlePower is what it draws holding a CUDA context and
	// running no kernel, 0 < IdlePower < TDP. PowerSource cites the TDP
	// and says what the idle figure rests on (an ASSUMPTION for all of
	// them today). Package cost prices a run's energy with them.
	TDP         float64 `json:"tdp_w"`
	IdlePower   float64 `json:"idle_w"`
	PowerSource string  `json:"power_source"`
	// Price is an ASSUMED, illustrative rental rate in dollars per
	// GPU-hour (PriceBasis says so); a scenario sets its own with
	// cost.gpu_hour.
	Price      float64 `json:"gpu_hour_usd"`
	PriceBasis string  `json:"price_basis"`
}

// ComputeTime is how long the GPU takes for flops floating-point operations
// at the given fraction of peak: flops / (PeakFLOPS × efficiency), rounded
// once by units.Round. An efficiency of 0 means the GPU's default
// (g.Efficiency). It panics on a negative or non-finite flops or an
// efficiency outside [0, 1]: scenarios validate those before a run.
func (g GPU) ComputeTime(flops float64, efficiency float64) units.Time {
	if efficiency == 0 {
		efficiency = g.Efficiency
	}
	if !(flops >= 0) || math.IsInf(flops, 0) {
		panic(fmt.Sprintf("hw: %s: FLOP count %v must be finite and non-negative", g.Name, flops))
	}
	if !fraction(efficiency) {
		panic(fmt.Sprintf("hw: %s: efficiency %v must be in (0, 1]", g.Name, efficiency))
	}
	return units.Round(flops / (g.PeakFLOPS * efficiency))
}

// HasFP8 reports whether the GPU has FP8 tensor cores (PeakFP8 > 0).
func (g GPU) HasFP8() bool { return g.PeakFP8 > 0 }

// Precisions lists the training precisions the GPU's tensor cores run:
// bf16 and fp16 everywhere (a GPU without bf16 still runs fp16, and the
// simulator prices both at PeakFLOPS), then fp8 where PeakFP8 > 0.
func (g GPU) Precisions() []string {
	if g.HasFP8() {
		return []string{"bf16", "fp16", "fp8"}
	}
	return []string{"bf16", "fp16"}
}

// MixedComputeTime is how long the GPU takes for flops FLOPs at PeakFLOPS
// and fp8Flops more at PeakFP8, both at the same fraction of peak (0
// means g.Efficiency): flops / (PeakFLOPS × e) + fp8Flops / (PeakFP8 ×
// e), rounded once by units.Round. With fp8Flops = 0 it equals
// ComputeTime. It panics, as ComputeTime does, on bad input, and on
// fp8Flops > 0 for a GPU without FP8: scenarios refuse fp8 there.
func (g GPU) MixedComputeTime(flops, fp8Flops, efficiency float64) units.Time {
	if fp8Flops == 0 {
		return g.ComputeTime(flops, efficiency)
	}
	if !g.HasFP8() {
		panic(fmt.Sprintf("hw: %s has no FP8 tensor cores for %v FP8 FLOPs", g.Name, fp8Flops))
	}
	if efficiency == 0 {
		efficiency = g.Efficiency
	}
	if !(fp8Flops >= 0) || math.IsInf(fp8Flops, 0) || !(flops >= 0) || math.IsInf(flops, 0) {
		panic(fmt.Sprintf("hw: %s: FLOP counts %v and %v must be finite and non-negative", g.Name, flops, fp8Flops))
	}
	if !fraction(efficiency) {
		panic(fmt.Sprintf("hw: %s: efficiency %v must be in (0, 1]", g.Name, efficiency))
	}
	return units.Round(flops/(g.PeakFLOPS*efficiency) + fp8Flops/(g.PeakFP8*efficiency))
}
