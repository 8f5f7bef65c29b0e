package playground

import (
	"paraplay/sim/jsonout"
	"paraplay/sim/plan"
	"paraplay/sim/scenario"
)

// PlanConfig is the planner's question for the scenario on show
// (plan.ForScenario): the same model, cluster and training settings, and
// its global batch (dp × microbatches × micro-batch size). Only a training
// scenario of a real model on catalog GPUs has one.
func PlanConfig(s scenario.Scenario) (plan.Config, error) { return plan.ForScenario(s) }

// PlanQuery is the address of a plan for the animation: its scenario with
// the fidelity left to the simulator (detailed up to 512 GPUs).
func PlanQuery(p *plan.Plan) string {
	s := p.Scenario
	s.Fidelity = "auto"
	return s.Query().Encode()
}

// PlanState is what the plan tab's planState() returns while a search
// runs (wasm/plantab.go): its progress (plan.Progress), whether the
// scatter is on show and its size, and the best plan's square.
type PlanState struct {
	// Active is true: a search runs (before one, the page reads
	// {"active": false, "shown": false}).
	Active      bool    `json:"active"`
	Shown       bool    `json:"shown"`
	Done        int     `json:"done"`
	Total       int     `json:"total"`
	Fraction    float64 `json:"fraction"`
	Plans       int     `json:"plans"`
	Screened    int     `json:"screened"`
	OutOfMemory int     `json:"outOfMemory"`
	Bounded     int     `json:"bounded"`
	Dominated   int     `json:"dominated"`
	Simulated   int     `json:"simulated"`
	// Best is the best plan's iteration in seconds.
	Best   float64 `json:"best"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// PickedN counts the clicks on a plan, Picked is the last one's address.
	PickedN int    `json:"pickedN"`
	Phase   string `json:"phase"`
	Picked  string `json:"picked"`
	Error   string `json:"error"`
	// CostAxis says the scatter shows dollars per million tokens.
	CostAxis bool `json:"costAxis,omitempty"`
	// BestX, BestY and BestID are the best plan's square, in logical
	// pixels, and its ID; empty before it is drawn.
	BestX  float64 `json:"bestX,omitempty"`
	BestY  float64 `json:"bestY,omitempty"`
	BestID string  `json:"bestID,omitempty"`
}

// PlanStateJSON is st as json.Marshal writes it. It is written here, in a
// package the wasm compiles without inlining, rather than from a map of
// boxed values in package main (about 6 KB less code).
func PlanStateJSON(st PlanState) ([]byte, error) {
	var w jsonout.Writer
	w.Begin('{')
	w.Key("active")
	w.Bool(st.Active)
	w.Key("shown")
	w.Bool(st.Shown)
	for _, f := range [...]struct {
		k string
		v float64
	}{{"done", float64(st.Done)}, {"total", float64(st.Total)}, {"fraction", st.Fraction}, {"plans", float64(st.Plans)},
		{"screened", float64(st.Screened)}, {"outOfMemory", float64(st.OutOfMemory)}, {"bounded", float64(st.Bounded)},
		{"dominated", float64(st.Dominated)}, {"simulated", float64(st.Simulated)}, {"best", st.Best},
		{"width", st.Width}, {"height", st.Height}, {"pickedN", float64(st.PickedN)}} {
		w.Key(f.k)
		w.Float(f.v)
	}
	str(&w, "phase", st.Phase)
	str(&w, "picked", st.Picked)
	str(&w, "error", st.Error)
	if st.CostAxis {
		w.Key("costAxis")
		w.Bool(true)
	}
	for _, f := range [...]struct {
		k string
		v float64
	}{{"bestX", st.BestX}, {"bestY", st.BestY}} {
		if f.v != 0 {
			w.Key(f.k)
			w.Float(f.v)
		}
	}
	if st.BestID != "" {
		str(&w, "bestID", st.BestID)
	}
	w.End('}')
	return w.Bytes()
}
