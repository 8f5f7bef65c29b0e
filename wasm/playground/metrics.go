package playground

import (
	"strconv"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
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
	// Rows, when set, replace the panel's totals (a long run's headline).
	Rows []MetricRow `json:"rows,omitempty"`
	// Raw values, for comparisons and tests: nanoseconds.
	IterationNS     int64 `json:"iterationNs"`
	ComputeNS       int64 `json:"computeNs"`
	CommunicationNS int64 `json:"communicationNs"`
	ExposedNS       int64 `json:"exposedNs"`
}

// MetricRow is one line of the totals: a name and its formatted value.
type MetricRow struct {
	Key   string `json:"key"`
	Value string `json:"value"`
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
		Title: s.Title, Fidelity: s.Fidelity, Iteration: Duration(s.Iteration), Compute: Duration(s.Compute),
		Communication: Duration(s.Communication), Exposed: Duration(s.ExposedCommunication),
		IterationNS: int64(s.Iteration), ComputeNS: int64(s.Compute), CommunicationNS: int64(s.Communication),
		ExposedNS: int64(s.ExposedCommunication),
	}
	for _, c := range s.Collectives {
		m.Collectives = append(m.Collectives, CollectiveMetrics{
			Name: c.Name.Label(), Algorithm: c.Algorithm, Ranks: c.Ranks, Bytes: c.Bytes.String(),
			Time: Duration(c.Time), AlgBW: Rate(c.AlgBW), BusBW: Rate(c.BusBW),
		})
	}
	for _, g := range s.GPUs {
		m.GPUs = append(m.GPUs, GPUMetrics{
			Name: g.Name, Busy: g.Busy, BusyPct: strconv.FormatFloat(100*g.Busy, 'f', 0, 64) + "%",
			Compute: Duration(g.Compute), Comm: Duration(g.Communication),
		})
	}
	return m
}

// Duration prints t to three significant digits in the largest unit that
// keeps it at least 1, e.g. "10.1ms": a panel compares runs at a glance,
// and units.Time.String's exact nanoseconds are in the trace.
func Duration(t units.Time) string {
	v := float64(t)
	switch {
	case v < 1e3:
		return strconv.FormatInt(int64(t), 10) + "ns"
	case v < 1e6:
		return sig3(v/1e3) + "µs"
	case v < 1e9:
		return sig3(v/1e6) + "ms"
	}
	return sig3(v/1e9) + "s"
}

// Rate prints a bandwidth to three significant digits, e.g. "66.2GB/s".
func Rate(bw units.Bandwidth) string {
	v := float64(bw)
	switch {
	case v >= 1e12:
		return sig3(v/1e12) + "TB/s"
	case v >= 1e9:
		return sig3(v/1e9) + "GB/s"
	case v >= 1e6:
		return sig3(v/1e6) + "MB/s"
	case v >= 1e3:
		return sig3(v/1e3) + "kB/s"
	}
	return sig3(v) + "B/s"
}

func sig3(v float64) string {
	prec := 2
	switch {
	case v >= 99.95:
		prec = 0
	case v >= 9.995:
		prec = 1
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}
