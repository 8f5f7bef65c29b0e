package gemm

import (
	"fmt"
	"slices"
	"strings"
)

// Fitted shape parameters of the H100 SXM, shared by the Hopper parts and
// borrowed by the older NVIDIA GPUs.
var (
	h100Balance = [numDTypes]float64{BF16: 43.5, FP16: 43.5, TF32: 83.7, FP8: 43.5}
	hopperRate  = [numDTypes]float64{BF16: 1, FP16: 1, TF32: 0.5, FP8: 2}
	ampereRate  = [numDTypes]float64{BF16: 1, FP16: 1, TF32: 0.5}
	fp16Only    = [numDTypes]float64{FP16: 1}
	// H100 SXM: the MAMF of bf16 and fp8, tf32's ceiling fitted.
	h100Ceiling = [numDTypes]float64{BF16: 794.5 / 989.4, FP16: 794.5 / 989.4, TF32: 0.629, FP8: 1402.6 / 1979}
	a100Ceiling = [numDTypes]float64{BF16: 271.2 / 312, FP16: 271.2 / 312, TF32: 271.2 / 312}
	// The b200 fit's, which a Blackwell GPU without a table borrows.
	blackwellCeiling = [numDTypes]float64{BF16: 1745.0 / 2250, FP16: 1745.0 / 2250, TF32: 0.796, FP8: 3432.5 / 4500}
	blackwellBalance = [numDTypes]float64{BF16: 41.5, FP16: 41.5, TF32: 99.7, FP8: 56.5}
	// The mi300x fit's, which an MI300-series GPU without a table borrows.
	cdna3Ceiling = [numDTypes]float64{BF16: 668.4 / 1307.4, FP16: 668.4 / 1307.4, TF32: 0.296, FP8: 0.70}
	cdna3Balance = [numDTypes]float64{BF16: 29.6, FP16: 29.6, TF32: 32.0, FP8: 135.5}
	// The A100's: 85.3 is the reuse of a 256×128 tile (the fit's 87.8
	// would put the ceiling MAMF measured out of reach); tf32 has no
	// measurement, so its Balance stays the h100-sxm fit's.
	a100Balance = [numDTypes]float64{BF16: 85.3, FP16: 85.3, TF32: 83.7}
)

// The TPUs' parameters: no measured TPU GEMM table is in the repository,
// so every one is an ASSUMPTION (sources.go says which): an MXU stands for
// an SM, fp16 runs at the bf16 rate, a 128×128 output tile (reuse 64)
// fills a 128×128 MXU (85.3, the largest tile's, on v6e's 256×256 MXUs).
var (
	tpuRate    = [numDTypes]float64{BF16: 1, FP16: 1}
	tpuCeiling = [numDTypes]float64{BF16: 0.85, FP16: 0.85}
	mxu128     = [numDTypes]float64{BF16: 64, FP16: 64}
	mxu256     = [numDTypes]float64{BF16: 85.3, FP16: 85.3}
)

const (
	tpuLaunch = 2e-6
	tpuHBM    = 0.85
)

const (
	h100TileOverhead = 0.93e-6
	h100Launch       = 4.72e-6
	h100HBM          = 0.704
	a100TileOverhead = 6.844e-6
	blackwellTile    = 1.18e-6
	blackwellLaunch  = 5.12e-6
	blackwellHBM     = 0.715
	cdna3Tile        = 0.87e-6
	cdna3Launch      = 8.63e-6
	cdna3HBM         = 0.98
)

// catalog is every GPU's GEMM parameters, sorted by name, without their
// citations (sources). It is one static table, no code: the browser app
// carries it, and a table of literals costs it a fraction of the code that
// would build one.
var catalog = [...]Params{
	{GPU: "a100-sxm-40gb", SMs: 108, Rate: ampereRate, Ceiling: a100Ceiling, Balance: a100Balance, TileOverhead: a100TileOverhead, Launch: h100Launch, HBMEfficiency: h100HBM},
	{GPU: "a100-sxm-80gb", SMs: 108, Rate: ampereRate, Ceiling: a100Ceiling, Balance: a100Balance, TileOverhead: a100TileOverhead, Launch: h100Launch, HBMEfficiency: h100HBM},
	{GPU: "a10g", SMs: 80, Rate: ampereRate, Ceiling: [numDTypes]float64{BF16: 0.8, FP16: 0.8, TF32: 0.8}, Balance: a100Balance, TileOverhead: a100TileOverhead, Launch: h100Launch, HBMEfficiency: h100HBM},
	{GPU: "b200", SMs: 148, Rate: hopperRate, Ceiling: blackwellCeiling, Balance: blackwellBalance, TileOverhead: blackwellTile, Launch: blackwellLaunch, HBMEfficiency: blackwellHBM},
	{GPU: "gb200", SMs: 148, Rate: hopperRate, Ceiling: blackwellCeiling, Balance: blackwellBalance, TileOverhead: blackwellTile, Launch: blackwellLaunch, HBMEfficiency: blackwellHBM},
	{GPU: "h100-pcie", SMs: 114, Rate: hopperRate, Ceiling: h100Ceiling, Balance: h100Balance, TileOverhead: h100TileOverhead, Launch: h100Launch, HBMEfficiency: h100HBM},
	{GPU: "h100-sxm", SMs: 132, Rate: hopperRate, Ceiling: h100Ceiling, Balance: h100Balance, TileOverhead: h100TileOverhead, Launch: h100Launch, HBMEfficiency: h100HBM},
	{GPU: "h20", SMs: 78, Rate: hopperRate, Ceiling: h100Ceiling, Balance: h100Balance, TileOverhead: h100TileOverhead, Launch: h100Launch, HBMEfficiency: h100HBM},
	{GPU: "h200", SMs: 132, Rate: hopperRate, Ceiling: [numDTypes]float64{BF16: 794.5 / 989.4, FP16: 794.5 / 989.4, TF32: 0.629, FP8: 1453.4 / 1979}, Balance: h100Balance, TileOverhead: h100TileOverhead, Launch: h100Launch, HBMEfficiency: h100HBM},
	{GPU: "h800", SMs: 132, Rate: hopperRate, Ceiling: h100Ceiling, Balance: h100Balance, TileOverhead: h100TileOverhead, Launch: h100Launch, HBMEfficiency: h100HBM},
	{GPU: "mi300x", SMs: 304, Rate: hopperRate, Ceiling: cdna3Ceiling, Balance: cdna3Balance, TileOverhead: cdna3Tile, Launch: cdna3Launch, HBMEfficiency: cdna3HBM},
	{GPU: "mi325x", SMs: 304, Rate: hopperRate, Ceiling: cdna3Ceiling, Balance: cdna3Balance, TileOverhead: cdna3Tile, Launch: cdna3Launch, HBMEfficiency: cdna3HBM},
	{GPU: "t4", SMs: 40, Rate: fp16Only, Ceiling: [numDTypes]float64{FP16: 0.6}, Balance: h100Balance, TileOverhead: h100TileOverhead, Launch: h100Launch, HBMEfficiency: h100HBM},
	{GPU: "tpu-v4", SMs: 8, Rate: tpuRate, Ceiling: tpuCeiling, Balance: mxu128, TileOverhead: 0, Launch: tpuLaunch, HBMEfficiency: tpuHBM, MXU: 128},
	{GPU: "tpu-v5e", SMs: 4, Rate: tpuRate, Ceiling: tpuCeiling, Balance: mxu128, TileOverhead: 0, Launch: tpuLaunch, HBMEfficiency: tpuHBM, MXU: 128},
	{GPU: "tpu-v5p", SMs: 8, Rate: tpuRate, Ceiling: tpuCeiling, Balance: mxu128, TileOverhead: 0, Launch: tpuLaunch, HBMEfficiency: tpuHBM, MXU: 128},
	{GPU: "tpu-v6e", SMs: 2, Rate: tpuRate, Ceiling: tpuCeiling, Balance: mxu256, TileOverhead: 0, Launch: tpuLaunch, HBMEfficiency: tpuHBM, MXU: 256},
	{GPU: "tpu7x", SMs: 8, Rate: [numDTypes]float64{BF16: 1, FP16: 1, FP8: 2}, Ceiling: [numDTypes]float64{BF16: 0.85, FP16: 0.85, FP8: 0.85}, Balance: [numDTypes]float64{BF16: 64, FP16: 64, FP8: 64}, TileOverhead: 0, Launch: tpuLaunch, HBMEfficiency: tpuHBM},
	{GPU: "v100-sxm", SMs: 80, Rate: fp16Only, Ceiling: [numDTypes]float64{FP16: 0.8}, Balance: h100Balance, TileOverhead: h100TileOverhead, Launch: h100Launch, HBMEfficiency: h100HBM},
}

// Catalog returns the GEMM parameters of every GPU in the hw catalog, a
// fresh slice on every call, sorted by GPU name, each with its citations
// (sources.go; the browser's build carries none, sources_js.go).
func Catalog() []Params {
	c := slices.Clone(catalog[:])
	for i := range c {
		c[i].cite()
	}
	return c
}

// cite fills p's Source and Basis from the catalog's citations.
func (p *Params) cite() { p.Source, p.Basis = sources[p.GPU][0], sources[p.GPU][1] }

// Lookup returns the parameters catalogued for the GPU called name; the
// error of an unknown name lists the known ones.
func Lookup(name string) (Params, error) {
	for _, p := range catalog {
		if p.GPU == name {
			p.cite()
			return p, nil
		}
	}
	names := make([]string, len(catalog))
	for i, p := range catalog {
		names[i] = p.GPU
	}
	return Params{}, fmt.Errorf("gemm: no GEMM parameters for gpu %q (known: %s)", name, strings.Join(names, ", "))
}
