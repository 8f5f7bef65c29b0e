package gemm

import (
	"errors"
	"fmt"
)

// Params are one GPU's GEMM parameters, beside the peak FLOP/s and HBM
// bandwidth its hw.GPU entry carries. Nothing in them names a model, a
// paper's run or a shape: with the GPU's datasheet they fix the time of
// every (shape, dtype).
type Params struct {
	// GPU is the hw catalog name the parameters belong to.
	GPU string
	// SMs is the number of streaming multiprocessors (compute units on
	// AMD): the width of one wave of output tiles.
	SMs int
	// Rate is each dtype's dense tensor-core peak over hw.GPU.PeakFLOPS
	// (0: no tensor cores for that dtype), from the datasheet in Source.
	Rate [numDTypes]float64
	// Ceiling is each dtype's maximum achievable matmul FLOP/s as a fraction
	// of its dense peak, in (0, 1] where Rate is positive: the best rate a
	// large, well-shaped GEMM sustains. Basis says where each comes from.
	Ceiling [numDTypes]float64
	// Balance is, per dtype, the tile's operand reuse tm·tn/(tm+tn) (its
	// multiply-adds per element loaded, per K step) at which a tile
	// reaches the ceiling; below it the SM waits on operands (its feed
	// from L2 and shared memory), and runs at reuse/Balance of the
	// ceiling. Fitted.
	Balance [numDTypes]float64
	// TileOverhead is the time an SM spends per output tile beyond its
	// multiply-adds (pipeline fill, epilogue, writing the tile), in seconds.
	// Fitted.
	TileOverhead float64
	// Launch is the fixed time of one GEMM however small (kernel launch and
	// the ramp of its first wave), in seconds. Fitted.
	Launch float64
	// HBMEfficiency is the fraction of the datasheet HBM bandwidth a
	// memory-bound GEMM streams at, in (0, 1]. Fitted.
	HBMEfficiency float64
	// MXU is, on a TPU, the side of its systolic array: a matmul dimension
	// of the operand the array holds is padded up to a multiple of it
	// (Austin et al. 2025, "How to Scale Your Model", Part 2: weight
	// matrices are padded to at least 128, 256 on TPU v6, in every
	// dimension to fill the MXU). 0 on a GPU, whose tensor-core tiles are
	// narrower than any head. Pad uses it.
	MXU int
	// Source cites the SM count and the dtype rates (empty in the
	// browser's build, which carries no citations).
	Source string
	// Basis says where each ceiling comes from and how the fitted
	// parameters were fitted, or that they were not (UNCONFIRMED).
	Basis string
}

// Validate reports every problem with p at once, joined.
func (p Params) Validate() error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, errorf("gemm: params "+p.GPU+": "+format, a))
	}
	if p.GPU == "" {
		bad("gpu name is empty")
	}
	if p.SMs < 1 || p.SMs > 10000 {
		bad("sms %d: want 1 to 10000", p.SMs)
	}
	if p.Rate[BF16] <= 0 && p.Rate[FP16] <= 0 {
		bad("rate: bf16 or fp16 must be positive")
	}
	for d := DType(0); d < numDTypes; d++ {
		r, c := p.Rate[d], p.Ceiling[d]
		if !(r >= 0 && r <= 8) {
			bad("rate[%s] %v: want 0 to 8", d, r)
		}
		if r > 0 && !(c > 0 && c <= 1) {
			bad("ceiling[%s] %v: want (0, 1]", d, c)
		}
		if b := p.Balance[d]; r > 0 && !(b > 0 && b < 1e4) {
			bad("balance[%s] %v: want (0, 10000)", d, b)
		}
	}
	if !(p.TileOverhead >= 0 && p.TileOverhead < 1e-3) {
		bad("tile overhead %v s: want [0, 1 ms)", p.TileOverhead)
	}
	if !(p.Launch >= 0 && p.Launch < 1e-3) {
		bad("launch %v s: want [0, 1 ms)", p.Launch)
	}
	if p.MXU < 0 || p.MXU > 1024 {
		bad("mxu %d: want 0 (none) to 1024", p.MXU)
	}
	if !(p.HBMEfficiency > 0 && p.HBMEfficiency <= 1) {
		bad("hbm efficiency %v: want (0, 1]", p.HBMEfficiency)
	}
	return errors.Join(errs...)
}

// errorf is fmt.Errorf of format and args. It is not inlined: validators call it
// from dozens of places, and the expanded call at each costs the
// browser's download a few hundred bytes.
//
//go:noinline
func errorf(format string, args []any) error { return fmt.Errorf(format, args...) }

// Pad is n rounded up to a multiple of the MXU side, the width a matmul
// dimension of n occupies on the systolic array; n itself when MXU is 0.
func (p Params) Pad(n int) int {
	if p.MXU <= 0 || n <= 0 {
		return n
	}
	return (n + p.MXU - 1) / p.MXU * p.MXU
}
