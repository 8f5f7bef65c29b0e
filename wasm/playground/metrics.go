package playground

import (
	"strconv"

	"paraplay/sim/timeline"
)

// Metrics are the numbers of the metrics panel, already formatted: the
// page writes them with textContent and does no arithmetic.
type Metrics struct {
	Title         string              `json:"title"`
	Fidelity      string              `json:"fidelity"`
	Iteration     string              `json:"iteration"`
	Compute       string              `json:"compute"`
	Communication string              `json:"communication"`
	Exposed       string              `json:"exposed"`
	Collectives   []CollectiveMetrics `json:"collectives"`
	GPUs          []GPUMetrics        `json:"gpus"`
	// Raw values, for comparisons and tests: nanoseconds.
	IterationNS int64 `json:"iterationNs"`
	ExposedNS   int64 `json:"exposedNs"`
}

// CollectiveMetrics is one collective's row.
type CollectiveMetrics struct {
	Name      string `json:"name"`
	Algorithm string `json:"algorithm"`
	Ranks     int    `json:"ranks"`
	Bytes     string `json:"bytes"`
	Time      string `json:"time"`
	AlgBW     string `json:"algbw"`
	BusBW     string `json:"busbw"`
}

// GPUMetrics is one GPU's row; Busy is a percentage.
type GPUMetrics struct {
	Name    string  `json:"name"`
	Busy    float64 `json:"busy"`
	BusyPct string  `json:"busyPct"`
	Compute string  `json:"compute"`
	Comm    string  `json:"comm"`
}

// MetricsOf summarises tl (timeline.Summarize) for the panel.
func MetricsOf(tl *timeline.Timeline) Metrics {
	s := tl.Summarize()
	m := Metrics{
		Title: s.Title, Fidelity: s.Fidelity, Iteration: s.Iteration.String(), Compute: s.Compute.String(),
		Communication: s.Communication.String(), Exposed: s.ExposedCommunication.String(),
		IterationNS: int64(s.Iteration), ExposedNS: int64(s.ExposedCommunication),
	}
	for _, c := range s.Collectives {
		m.Collectives = append(m.Collectives, CollectiveMetrics{
			Name: c.Name, Algorithm: c.Algorithm, Ranks: c.Ranks, Bytes: c.Bytes.String(),
			Time: c.Time.String(), AlgBW: c.AlgBW.String(), BusBW: c.BusBW.String(),
		})
	}
	for _, g := range s.GPUs {
		m.GPUs = append(m.GPUs, GPUMetrics{
			Name: g.Name, Busy: g.Busy, BusyPct: strconv.FormatFloat(100*g.Busy, 'f', 0, 64) + "%",
			Compute: g.Compute.String(), Comm: g.Communication.String(),
		})
	}
	return m
}
