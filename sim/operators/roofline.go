package operators

import (
	"errors"
	"fmt"
	"math"

	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// DefaultLaunchOverhead is the fixed cost of starting one kernel: 3 µs,
// the inverse of the best rate Boyer's empty-kernel microbenchmark reached,
// about 334,000 asynchronous launches per second (M. Boyer, "CUDA Kernel
// Overhead", University of Virginia, cs.virginia.edu/~mwb7w/cuda_support/
// kernel_overhead.html; read through the search tool). Those GPUs predate
// Hopper; recent dispatch measurements land in the same few microseconds
// (a B200 write-up measured 25.8 µs for a 24 µs kernel through a CUDA graph
// and 28.3 µs launched directly), so the figure is kept as an order of
// magnitude, not a calibration.
const DefaultLaunchOverhead = 3 * units.Microsecond

// Shape is what an efficiency may depend on: the kind of kernel, its
// input format and its dimensions. It carries no name, model or phase, so
// that an efficiency cannot be tuned per model or per paper, and so that
// prices can be cached by shape.
type Shape struct {
	// Kind is KindGEMM or KindAttention.
	Kind Kind
	// DType is the inputs' format.
	DType DType
	// GEMM is the shape of a GEMM, zero for attention.
	GEMM GEMM
	// Attention is the shape of an attention kernel, zero for a GEMM.
	Attention Attention
}

// ShapeOf is op's Shape.
func ShapeOf(op Op) Shape { return Shape{op.Kind, op.DType, op.GEMM, op.Attention} }

// Efficiency is the fraction of the tensor cores' peak that a GEMM or
// attention kernel of the given shape reaches, in (0, 1], on the GPU it
// was made for.
type Efficiency func(Shape) float64

// Roofline is what pricing needs to know of a GPU.
type Roofline struct {
	// PeakFLOPS is the dense 16-bit tensor-core peak in FLOP/s.
	PeakFLOPS float64
	// FP8FLOPS is the dense FP8 tensor-core peak; 0 when the GPU has none,
	// which makes FP8 ops an error.
	FP8FLOPS float64
	// VectorFLOPS is the non-tensor throughput elementwise and reduction
	// kernels run at; 0 prices them by their bytes alone.
	VectorFLOPS float64
	// HBMBandwidth is the memory bandwidth in bytes/s.
	HBMBandwidth float64
	// Launch is the per-kernel overhead added to every op, ≥ 0.
	Launch units.Time
	// Efficiency gives GEMM and attention ops their fraction of peak; nil
	// means 1 (the pure roofline).
	Efficiency Efficiency
}

// FromGPU is the roofline of a catalog GPU: its 16-bit peak and HBM
// bandwidth, DefaultLaunchOverhead, and the given efficiency. The catalog
// has no FP8 or vector peaks yet, so FP8FLOPS and VectorFLOPS are 0.
func FromGPU(g hw.GPU, eff Efficiency) Roofline {
	return Roofline{PeakFLOPS: g.PeakFLOPS, HBMBandwidth: float64(g.HBMBandwidth), Launch: DefaultLaunchOverhead, Efficiency: eff}
}

// Validate reports every problem with r, joined.
func (r Roofline) Validate() error {
	var errs []error
	finite := func(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }
	if !(r.PeakFLOPS > 0) || !finite(r.PeakFLOPS) {
		errs = append(errs, fmt.Errorf("operators: peak %v FLOP/s, want positive", r.PeakFLOPS))
	}
	if !finite(r.FP8FLOPS) || !finite(r.VectorFLOPS) {
		errs = append(errs, fmt.Errorf("operators: FP8 peak %v and vector peak %v FLOP/s, want 0 (none) or positive", r.FP8FLOPS, r.VectorFLOPS))
	}
	if !(r.HBMBandwidth > 0) || !finite(r.HBMBandwidth) {
		errs = append(errs, fmt.Errorf("operators: HBM bandwidth %v B/s, want positive", r.HBMBandwidth))
	}
	if r.Launch < 0 {
		errs = append(errs, fmt.Errorf("operators: launch overhead %v, want ≥ 0", r.Launch))
	}
	return errors.Join(errs...)
}

// priceKey is everything an op's price depends on.
type priceKey struct {
	shape   Shape
	flops   float64
	bytes   float64
	grouped bool
}

// Pricer prices ops on one roofline and remembers each shape's price, so
// that the thousands of identical layers of a large run cost one lookup
// each. It is not safe for concurrent use.
type Pricer struct {
	r     Roofline
	cache map[priceKey]units.Time
}

// NewPricer returns a Pricer for r, or r's Validate error.
func NewPricer(r Roofline) (*Pricer, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &Pricer{r: r, cache: map[priceKey]units.Time{}}, nil
}

// Time is op's duration on the roofline:
//
//	max(FLOPs / (peak(dtype) × efficiency), bytes / HBM bandwidth) + launch
//
// with peak the tensor cores' for GEMM and attention ops and the vector
// units' for the others. A collective is an error: sim/collective prices
// those, on the links. So are an FP8 op on a GPU without FP8 and an
// efficiency outside (0, 1].
func (p *Pricer) Time(op Op) (units.Time, error) {
	if op.Kind == KindCollective {
		return 0, fmt.Errorf("operators: %s is a collective; price it with sim/collective", op.Name)
	}
	key := priceKey{ShapeOf(op), op.FLOPs, op.Bytes(), op.Grouped}
	if t, ok := p.cache[key]; ok {
		return t, nil
	}
	compute, err := p.computeSeconds(op)
	if err != nil {
		return 0, err
	}
	t := units.Round(max(compute, op.Bytes()/p.r.HBMBandwidth))
	if !op.Grouped {
		t += p.r.Launch
	}
	p.cache[key] = t
	return t, nil
}

// computeSeconds is the compute side of the roofline.
func (p *Pricer) computeSeconds(op Op) (float64, error) {
	if !op.IsMatmul() {
		if p.r.VectorFLOPS == 0 {
			return 0, nil
		}
		return op.FLOPs / p.r.VectorFLOPS, nil
	}
	peak := p.r.PeakFLOPS
	if op.DType == FP8 {
		if p.r.FP8FLOPS == 0 {
			return 0, fmt.Errorf("operators: %s runs in fp8, and this GPU has no FP8 peak", op.Name)
		}
		peak = p.r.FP8FLOPS
	}
	eff := 1.0
	if p.r.Efficiency != nil {
		eff = p.r.Efficiency(ShapeOf(op))
	}
	if !(eff > 0 && eff <= 1) {
		return 0, fmt.Errorf("operators: efficiency %v for %s, want in (0, 1]", eff, op.Name)
	}
	return op.FLOPs / (peak * eff), nil
}

// Total is the summed time of l's compute ops, one after another on one
// stream; collectives are skipped (they are sim/collective's).
func (p *Pricer) Total(l List) (units.Time, error) {
	var sum units.Time
	for _, op := range l {
		if op.Kind == KindCollective {
			continue
		}
		t, err := p.Time(op)
		if err != nil {
			return 0, err
		}
		sum += t
	}
	return sum, nil
}

// Shapes is how many distinct shapes p has priced.
func (p *Pricer) Shapes() int { return len(p.cache) }

// PhaseTimes are a list's compute times by phase: the T_F, T_B and T_W a
// pipeline schedule takes, the recomputation that precedes B, and the
// optimizer step.
type PhaseTimes struct {
	// Forward, Recompute, BackwardInput, BackwardWeight and Step are the
	// summed times of the ops of each phase.
	Forward, Recompute, BackwardInput, BackwardWeight, Step units.Time
}

// ByPhase prices l's compute ops and sums them by phase; collectives are
// skipped, as in Total.
func (p *Pricer) ByPhase(l List) (PhaseTimes, error) {
	var pt PhaseTimes
	slot := map[Phase]*units.Time{Forward: &pt.Forward, Recompute: &pt.Recompute,
		BackwardInput: &pt.BackwardInput, BackwardWeight: &pt.BackwardWeight, Step: &pt.Step}
	for _, op := range l {
		if op.Kind == KindCollective {
			continue
		}
		t, err := p.Time(op)
		if err != nil {
			return PhaseTimes{}, err
		}
		*slot[op.Phase] += t
	}
	return pt, nil
}
