package hw

import "paraplay/sim/units"

// Calibration is what measurements of one cluster say where they differ
// from the catalog: a link's fitted bandwidth and per-message α (from
// nccl-tests logs or a profiler's NCCL kernels), and a GPU's GEMM
// efficiency relative to the GEMM model (from a profiler's GEMM kernels).
// paraplay calibrate fits one and writes it to a file; a run given one
// (scenario.Scenario.Calibration, set by the command line) prices its
// links and GEMMs with it instead of the catalog's figures. The zero value
// changes nothing.
type Calibration struct {
	// Links replaces, by link preset name (or IdealLink), the link's
	// effective bandwidth (Link.Effective) and its α (Link.Latency).
	Links map[string]LinkFit `json:"links,omitempty"`
	// GEMMScale multiplies, by GPU preset name, the efficiency the GEMM
	// model (package gemm) gives every GEMM on that GPU, in
	// [MinGEMMScale, MaxGEMMScale]: 0.8 says the measured GEMMs ran at 80%
	// of the modelled efficiency (their times ÷ 0.8), capped at the peak.
	GEMMScale map[string]float64 `json:"gemm_scale,omitempty"`
}

// IdealLink is the name a calibration gives the ideal links of a scenario
// without a cluster.gpu (its link.bandwidth and link.latency).
const IdealLink = "ideal"

// LinkFit is a link's measured bandwidth and α.
type LinkFit struct {
	// Bandwidth is the per-direction rate a large message gets, what
	// Link.Effective gives a preset: MinFitBandwidth..MaxFitBandwidth.
	Bandwidth units.Bandwidth `json:"bandwidth"`
	// Latency is α, the fixed cost of one message (one step of a ring),
	// 0..MaxFitLatency.
	Latency units.Time `json:"latency"`
}

// The ranges a calibration's figures must lie in: far beyond any real
// link or fit, so that only a broken file is refused.
const (
	MinFitBandwidth units.Bandwidth = 1e6
	MaxFitBandwidth units.Bandwidth = 1e14
	MaxFitLatency                   = units.Second
	MinGEMMScale                    = 0.01
	MaxGEMMScale                    = 100.0
)

// Port is the bandwidth and α a run gives link l: its fit when the
// calibration has one, else the catalog's (Effective, Latency).
func (c *Calibration) Port(l Link) (units.Bandwidth, units.Time) {
	if c != nil {
		if f, ok := c.Links[l.Name]; ok {
			return f.Bandwidth, f.Latency
		}
	}
	return l.Effective(), l.Latency
}

// Scale is the GEMM efficiency scale of the GPU called name (1 without one).
func (c *Calibration) Scale(name string) float64 {
	if c != nil {
		if s, ok := c.GEMMScale[name]; ok {
			return s
		}
	}
	return 1
}
