package cost

// Long is a long run with failures (package fault's report): its wall
// time, the part of it the GPUs spent training (work that survived, work
// a failure rolled back, and degraded running), and the useful work.
type Long struct {
	// Wall and Training are in seconds; Training ≤ Wall.
	Wall, Training float64
	// Iterations is the useful work, in healthy iterations.
	Iterations float64
}

// LongEstimate is what a long run costs, and what the token budget costs
// at its goodput.
type LongEstimate struct {
	// CostUSD is the GPUs' rent over the wall time.
	CostUSD float64 `json:"run_cost_usd"`
	// EnergyKWh is the facility's energy over the wall time: training at
	// the healthy iteration's power, detection, restarts, checkpoints and
	// reconfiguration at idle power, all × PUE.
	EnergyKWh float64 `json:"run_energy_kwh"`
	// UsefulTokens are the tokens of the work that survived.
	UsefulTokens float64 `json:"useful_tokens"`
	// USDPerMillion is CostUSD per million useful tokens.
	USDPerMillion float64 `json:"usd_per_million_useful_tokens"`
	// Budget is training.tokens at this run's goodput; nil without a
	// budget or useful work.
	Budget *Estimate `json:"budget,omitempty"`
}

// OfLong prices the long run l of iteration it under s: its wall time's
// rent and energy, per useful token, and, when tokens > 0, the token
// budget at the same goodput (the run's wall time and energy scaled by
// tokens over its useful tokens).
func OfLong(it Iteration, l Long, tokens float64, s Settings) LongEstimate {
	var e LongEstimate
	e.CostUSD = it.Price * l.Wall / 3600
	joules := it.Power*l.Training + it.Idle*max(0, l.Wall-l.Training)
	e.EnergyKWh = joules * s.PUE / 3.6e6
	e.UsefulTokens = l.Iterations * it.Tokens
	if e.UsefulTokens <= 0 {
		return e
	}
	e.USDPerMillion = e.CostUSD / e.UsefulTokens * 1e6
	if tokens > 0 && it.GPUs > 0 {
		scale := tokens / e.UsefulTokens
		b := Estimate{Tokens: tokens, PUE: s.PUE, GridKgPerKWh: s.GridKgPerKWh, Assumed: it.Assumed,
			Days: l.Wall * scale / 86400, GPUHours: float64(it.GPUs) * l.Wall * scale / 3600,
			CostUSD: e.CostUSD * scale, EnergyKWh: e.EnergyKWh * scale,
			PowerPerGPU: it.Power / float64(it.GPUs), GPUHour: it.Price / float64(it.GPUs)}
		b.CO2Kg = b.EnergyKWh * s.GridKgPerKWh
		e.Budget = &b
	}
	return e
}
