package fault

import (
	"math"
	"math/rand/v2"

	"paraplay/sim/units"
)

// Day is 24 hours.
const Day = 24 * 3600 * units.Second

// Failure is one node failure.
type Failure struct {
	// At is when the node fails, from the start of the run.
	At units.Time
	// Node is the failed node, 0..nodes−1.
	Node int
	// Cause is a name from Causes.
	Cause string
}

// NodeLost reports whether the failure takes its node away (hardware,
// maintenance) rather than only crashing the job (software).
func (f Failure) NodeLost() bool {
	c, _ := CauseByName(f.Cause)
	return c.NodeLost
}

// Process draws node failures: every node fails as an independent Poisson
// process of rate λ per day, so the job as a whole sees a Poisson process
// of rate N·λ, each failure on a node drawn uniformly and with a cause
// drawn from the mix (superposition of Poisson processes). It is seeded
// and deterministic.
type Process struct {
	rate  float64 // failures per nanosecond, all nodes together
	nodes int
	cum   []float64 // cumulative cause fractions
	mix   Mix
	rng   *rand.Rand
	at    float64 // time of the last failure drawn, in ns
}

// NewProcess returns the failure process of nodes nodes failing at
// ratePerNodeDay each, with causes from mix, drawn from seed.
func NewProcess(nodes int, ratePerNodeDay float64, mix Mix, seed uint64) *Process {
	p := &Process{rate: float64(nodes) * ratePerNodeDay / float64(Day), nodes: nodes, mix: mix,
		rng: rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909))}
	sum := 0.0
	for _, f := range mix.Fractions() {
		sum += f
		p.cum = append(p.cum, sum)
	}
	return p
}

// MTBF is the job's mean time between failures, 1/(N·λ); units.MaxTime
// when nothing fails.
func (p *Process) MTBF() units.Time {
	if p.rate <= 0 {
		return units.MaxTime
	}
	return units.Round(1 / p.rate / 1e9)
}

// Next draws the next failure. With a rate of 0 it never comes: At is
// units.MaxTime.
func (p *Process) Next() Failure {
	if p.rate <= 0 || p.nodes < 1 {
		return Failure{At: units.MaxTime}
	}
	p.at += p.rng.ExpFloat64() / p.rate
	f := Failure{At: units.MaxTime, Node: p.rng.IntN(p.nodes), Cause: p.cause(p.rng.Float64())}
	if p.at < float64(math.MaxInt64)/2 {
		f.At = units.Time(math.Round(p.at))
	}
	return f
}

func (p *Process) cause(u float64) string {
	for i, c := range p.cum {
		if u < c {
			return p.mix[i].Cause
		}
	}
	return p.mix[len(p.mix)-1].Cause
}

// Until draws every failure before end.
func (p *Process) Until(end units.Time) []Failure {
	var out []Failure
	for f := p.Next(); f.At < end; f = p.Next() {
		out = append(out, f)
	}
	return out
}
