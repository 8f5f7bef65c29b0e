package gemm

import (
	"fmt"
	"math"

	"paraplay/sim/hw"
)

// Shape is one GEMM: Batch independent products of an M×K by a K×N matrix.
type Shape struct {
	// Batch is the number of independent products, at least 1.
	Batch int
	// M is the rows of the output, at least 1.
	M int
	// N is the columns of the output, at least 1.
	N int
	// K is the shared (reduction) dimension, at least 1.
	K int
}

// maxDim bounds each dimension so that counts stay exact in float64 and a
// product of four dimensions cannot overflow: 2^24 = 16,777,216.
const maxDim = 1 << 24

// Validate names the first dimension outside [1, 2^24].
func (s Shape) Validate() error {
	for i, v := range [4]int{s.Batch, s.M, s.N, s.K} {
		if v < 1 || v > maxDim {
			return fmt.Errorf("gemm: shape %s = %d: want 1 to %d", [4]string{"batch", "m", "n", "k"}[i], v, maxDim)
		}
	}
	return nil
}

// FLOPs is 2·Batch·M·N·K: one multiply and one add per term of each output.
func (s Shape) FLOPs() float64 {
	return 2 * float64(s.Batch) * float64(s.M) * float64(s.N) * float64(s.K)
}

// Bytes is what the GEMM must move through HBM at least once: both inputs
// read and the output written (each element once: the kernel's reuse of
// operands out of L2 and shared memory is taken as perfect here).
func (s Shape) Bytes(d DType) float64 {
	b, m, n, k := float64(s.Batch), float64(s.M), float64(s.N), float64(s.K)
	return b*(m*k+k*n)*d.inBytes() + b*m*n*d.outBytes()
}

// tile is an output block one SM computes: tm rows by tn columns. The set
// spans what Hopper-, Blackwell- and CDNA-class kernel libraries (CUTLASS
// and cuBLAS, hipBLASLt) offer, from 64×64 to 256×128; the model lets the
// library pick, as its heuristics do, the fastest of them.
type tile struct{ tm, tn int }

var tiles = [...]tile{{256, 128}, {128, 256}, {128, 128}, {128, 64}, {64, 128}, {64, 64}}

// splits are the split-K factors tried: the K loop cut into that many
// slices run on different SMs, whose fp32 partial sums are then reduced.
var splits = [...]int{1, 2, 4, 8, 16}

// minSplitK is the shortest K slice a split may leave.
const minSplitK = 128

// Model prices GEMMs on one GPU. Build it once with For and reuse it: it
// holds only numbers, so its methods are cheap, safe for concurrent use,
// and give the same answer for the same arguments.
type Model struct {
	gpu   string
	sms   float64
	peak  [numDTypes]float64 // dense FLOP/s per dtype, 0 where unsupported
	perSM [numDTypes]float64 // ceiling FLOP/s per SM
	// perK is, per dtype and tile, the seconds an SM takes per unit of K
	// on that tile: 2·tm·tn / r.
	perK    [numDTypes][len(tiles)]float64
	perTile float64 // s per tile
	launch  float64 // s per GEMM
	hbm     float64 // achievable HBM bytes/s
}

// For returns the model of g, from g's datasheet figures and the GEMM
// parameters catalogued for g.Name (see Catalog).
func For(g hw.GPU) (*Model, error) {
	p, err := Lookup(g.Name)
	if err != nil {
		return nil, err
	}
	return build(g, p)
}

// build joins a GPU's datasheet with its GEMM parameters.
func build(g hw.GPU, p Params) (*Model, error) {
	if err := checkParams(p); err != nil {
		return nil, err
	}
	if !(g.PeakFLOPS > 0) || !(g.HBMBandwidth > 0) {
		return nil, fmt.Errorf("gemm: gpu %s: peak %v FLOP/s and HBM bandwidth %v must be positive", g.Name, g.PeakFLOPS, g.HBMBandwidth)
	}
	m := &Model{
		gpu: g.Name, sms: float64(p.SMs), perTile: p.TileOverhead,
		launch: p.Launch, hbm: float64(g.HBMBandwidth) * p.HBMEfficiency,
	}
	for d := DType(0); d < numDTypes; d++ {
		m.peak[d] = g.PeakFLOPS * p.Rate[d]
		m.perSM[d] = m.peak[d] * p.Ceiling[d] / m.sms
	}
	for d := DType(0); d < numDTypes; d++ {
		for i, t := range tiles {
			tm, tn := float64(t.tm), float64(t.tn)
			if r := m.perSM[d] * min(1, tm*tn/(tm+tn)/p.Balance[d]); r > 0 {
				m.perK[d][i] = 2 * tm * tn / r
			}
		}
	}
	return m, nil
}

// Time is the modelled duration of s in dtype d, in seconds:
//
//	t = launch + min over tiles (tm, tn) and splits s of
//	    max( waves·(2·tm·tn·⌈K/s⌉ / r + tile overhead),  bytes / (HBM bandwidth·η) )
//	waves = ⌈Batch·⌈M/tm⌉·⌈N/tn⌉·s / SMs⌉
//	r = (ceiling / SMs) · min(1, (tm·tn/(tm+tn)) / balance)
//
// The wave count is tile and wave quantization: a partial tile costs a
// whole one and a partial wave a whole wave. r is the SM's rate on that
// tile: the GPU's maximum achievable FLOP/s shared by its SMs, unless the
// tile reuses each operand element it loads (tm·tn/(tm+tn) times per K
// step) too little for its operands to arrive in time. The bytes term is
// the roofline's memory bound (split-K adds its fp32 partial sums, written
// and read once). The parameters are in Params; t includes launch (see
// Launch).
func (m *Model) Time(s Shape, d DType) (float64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	if !d.valid() {
		return 0, fmt.Errorf("gemm: dtype %d: want one of bf16, fp16, tf32, fp8", int(d))
	}
	if m.peak[d] == 0 {
		return 0, fmt.Errorf("gemm: gpu %s has no %s tensor cores", m.gpu, d)
	}
	return m.launch + m.body(s, d), nil
}

// body is Time without the launch and the checks: the formula of Time,
// with each tile's rate precomputed in perK.
func (m *Model) body(s Shape, d DType) float64 {
	b, mm, n, k := float64(s.Batch), float64(s.M), float64(s.N), float64(s.K)
	memory := s.Bytes(d) / m.hbm
	partials := 2 * 4 * b * mm * n / m.hbm // split-K's fp32 partial sums, per slice
	best := math.Inf(1)
	for i, t := range tiles {
		blocks := b * math.Ceil(mm/float64(t.tm)) * math.Ceil(n/float64(t.tn))
		for j, sp := range splits {
			fs := float64(sp)
			if j > 0 && k < minSplitK*fs {
				break
			}
			compute := math.Ceil(blocks*fs/m.sms) * (m.perK[d][i]*math.Ceil(k/fs) + m.perTile)
			t := memory
			if j > 0 {
				t += partials * fs
			}
			if compute > t {
				t = compute
			}
			if t < best {
				best = t
			}
		}
	}
	return best
}

// Efficiency is achieved over peak: s's FLOPs / (Time × the GPU's dense
// peak in d), in (0, 1).
func (m *Model) Efficiency(s Shape, d DType) (float64, error) {
	t, err := m.Time(s, d)
	if err != nil {
		return 0, err
	}
	return s.FLOPs() / t / m.peak[d], nil
}

// Peak is the GPU's dense tensor-core FLOP/s in d, 0 when it has none.
func (m *Model) Peak(d DType) float64 {
	if !d.valid() {
		return 0
	}
	return m.peak[d]
}

// Launch is the fixed time Time includes for every GEMM (Params.Launch):
// the table the model was fitted to timed each GEMM with it. A caller that
// adds a per-kernel launch overhead of its own should not add it twice.
func (m *Model) Launch() float64 { return m.launch }

// Ceiling is the largest FLOP/s the model can reach in d: the maximum
// achievable matmul FLOP/s of Params.Ceiling.
func (m *Model) Ceiling(d DType) float64 {
	if !d.valid() {
		return 0
	}
	return m.perSM[d] * m.sms
}

// Time is For(g) then Model.Time; callers pricing many GEMMs should keep
// the Model.
func Time(g hw.GPU, s Shape, d DType) (float64, error) {
	m, err := For(g)
	if err != nil {
		return 0, err
	}
	return m.Time(s, d)
}

// Efficiency is For(g) then Model.Efficiency.
func Efficiency(g hw.GPU, s Shape, d DType) (float64, error) {
	m, err := For(g)
	if err != nil {
		return 0, err
	}
	return m.Efficiency(s, d)
}
