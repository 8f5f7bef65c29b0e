package whatif

import (
	"fmt"
	"math"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/kineto"
	"paraplay/sim/units"
)

// Change is what a what-if replay changes. The zero value changes nothing.
type Change struct {
	// Compute is how many times faster GEMM and attention kernels run:
	// 0 (unchanged) or 0.01..1000.
	Compute float64 `json:"compute,omitempty"`
	// Memory is how many times faster elementwise, normalisation and other
	// kernels run: 0 (unchanged) or 0.01..1000.
	Memory float64 `json:"memory,omitempty"`
	// Network is how many times faster NCCL kernels run: 0 (unchanged) or
	// 0.01..1000.
	Network float64 `json:"network,omitempty"`
	// Group is the ranks of the group of every all-reduce, all-gather and
	// reduce-scatter whose trace gives its group size: 0 (unchanged) or
	// 2..1048576.
	Group int `json:"group,omitempty"`
	// Overlap makes computing kernels stop waiting for NCCL kernels on
	// other streams.
	Overlap bool `json:"overlap,omitempty"`
	// HostFixed keeps the host as measured: a kernel starts no earlier
	// than the end of the runtime call that launched it (when the trace
	// ties them by correlation id). Without it the host follows its GPU.
	HostFixed bool `json:"host_fixed,omitempty"`
}

// Validate checks each field's range.
func (c Change) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"compute", c.Compute}, {"memory", c.Memory}, {"network", c.Network}} {
		if f.v != 0 && !(f.v >= 0.01 && f.v <= 1000) {
			return fmt.Errorf("whatif: %s is %v; allowed 0 (unchanged) or 0.01..1000 (times faster)", f.name, f.v)
		}
	}
	if c.Group != 0 && (c.Group < 2 || c.Group > 1<<20) {
		return fmt.Errorf("whatif: group is %d; allowed 0 (unchanged) or 2..%d ranks", c.Group, 1<<20)
	}
	return nil
}

// FromGPUs is the change of running on GPU to instead of from: GEMM and
// attention by the ratio of their dense tensor peaks (hw.GPU.PeakFLOPS),
// the memory-bound kernels by the ratio of their HBM bandwidths.
func FromGPUs(from, to hw.GPU) Change {
	return Change{
		Compute: to.PeakFLOPS / from.PeakFLOPS,
		Memory:  float64(to.HBMBandwidth) / float64(from.HBMBandwidth),
	}
}

// ringShare is the share (n−1)/n of the buffer a ring sends per rank.
func ringShare(n int) float64 { return float64(n-1) / float64(n) }

// duration is the replayed time of kernel k of t.
func (c Change) duration(t *kineto.Trace, k *kineto.Kernel) units.Time {
	d := k.Dur()
	scale := 1.0
	switch k.Class {
	case kineto.GEMM, kineto.Attention:
		scale = speed(c.Compute)
	case kineto.Elementwise, kineto.Other:
		scale = speed(c.Memory)
	case kineto.Collective:
		scale = speed(c.Network)
		if n := t.NCCLOf(k); n != nil && c.Group != 0 && n.GroupSize >= 2 {
			switch n.Op {
			case collective.OpAllReduce, collective.OpAllGather, collective.OpReduceScatter:
				scale /= ringShare(c.Group) / ringShare(n.GroupSize)
			}
		}
	}
	if scale == 1 {
		return d
	}
	return units.Time(math.Round(float64(d) / scale))
}

// speed is a speed-up, 1 for 0 (unchanged).
func speed(x float64) float64 {
	if x == 0 {
		return 1
	}
	return x
}
