package taskgraph

// Fidelity levels of a run's communication, as timeline.Timeline.Fidelity
// records them.
const (
	// Detailed simulates every message as a flow on the links.
	Detailed = "detailed"
	// Analytic prices each collective with its α–β closed form on the
	// bottleneck path.
	Analytic = "analytic"
	// Auto is Detailed up to AutoDetailedRanks ranks, Analytic above.
	Auto = "auto"
)

// AutoDetailedRanks is the largest run Auto simulates in detail.
const AutoDetailedRanks = 512
