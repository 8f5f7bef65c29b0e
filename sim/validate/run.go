package validate

import (
	"errors"
	"math"
)

// Status is a row's badge.
type Status string

// The badges.
const (
	// Holds: within tolerance (enforced or not).
	Holds Status = "holds"
	// Off: outside tolerance, not enforced; the row's Why says why.
	Off Status = "off"
	// Fails: an enforced row outside its tolerance. The run fails.
	Fails Status = "fails"
	// Pending: the row's kind has no model yet (ErrPending).
	Pending Status = "pending"
	// Broken: the row could not be simulated (a bad config, an error
	// from the simulator). The run fails.
	Broken Status = "broken"
)

// Result is one row's outcome.
type Result struct {
	Row Row `json:"row"`
	// Simulated is the simulator's figure, in the row's unit; NaN when
	// there is none (pending, broken). JSON carries it as null then.
	Simulated float64 `json:"-"`
	// Error is Simulated/Published − 1 for a relative row, and
	// Simulated − Published (in the unit) for an at_most row; NaN
	// without a simulated figure.
	Error float64 `json:"-"`
	// Status is the badge.
	Status Status `json:"status"`
	// Problem is the error of a broken or pending row.
	Problem string `json:"problem,omitempty"`
}

// Report is the outcome of every row.
type Report struct {
	Results []Result `json:"results"`
}

// OK reports whether no row fails or is broken.
func (r Report) OK() bool {
	for _, x := range r.Results {
		if x.Status == Fails || x.Status == Broken {
			return false
		}
	}
	return true
}

// Count returns how many rows have status s.
func (r Report) Count(s Status) int {
	n := 0
	for _, x := range r.Results {
		if x.Status == s {
			n++
		}
	}
	return n
}

// Run simulates every row with its kind from kinds and judges it.
func Run(rows []Row, kinds []Kind) Report {
	rep := Report{Results: make([]Result, 0, len(rows))}
	for _, row := range rows {
		rep.Results = append(rep.Results, RunRow(row, kinds))
	}
	return rep
}

// RunRow simulates one row and judges it.
func RunRow(row Row, kinds []Kind) Result {
	res := Result{Row: row, Simulated: math.NaN(), Error: math.NaN()}
	fail := func(err error) Result {
		res.Problem = err.Error()
		res.Status = Broken
		if errors.Is(err, ErrPending) && !row.Enforced {
			res.Status = Pending
		}
		return res
	}
	if err := row.Validate(); err != nil {
		return fail(err)
	}
	k, err := lookup(kinds, row.Kind)
	if err != nil {
		return fail(err)
	}
	if err := k.checkConfig(row); err != nil {
		return fail(err)
	}
	got, err := k.Simulate(row.Config)
	if err != nil {
		return fail(err)
	}
	if math.IsNaN(got) || math.IsInf(got, 0) {
		return fail(errors.New("the kind returned a figure that is not a finite number"))
	}
	res.Simulated = got
	within := false
	if row.Compare == AtMost {
		res.Error = got - row.Published.Value
		within = got <= row.Published.Value
	} else {
		res.Error = got/row.Published.Value - 1
		within = math.Abs(res.Error) <= row.Tolerance
	}
	switch {
	case within:
		res.Status = Holds
	case row.Enforced:
		res.Status = Fails
	default:
		res.Status = Off
	}
	return res
}
