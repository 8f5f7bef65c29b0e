//go:build !js

package swarm

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Record is a SWARM run's record on the timeline (Extra["swarm"]).
type Record struct {
	// Stages is the number of model stages.
	Stages int `json:"stages"`
	// Peers is the stage each peer serves at the end, −1 for a failed one.
	Peers []int `json:"peers"`
	// Initial and Final are the closed form X = min_s R_s / (F + B), in
	// microbatches a second, for the peers' first and last placement.
	Initial float64 `json:"initial"`
	Final   float64 `json:"final"`
	// Measured is the rate at which microbatches finished in the steady
	// state: from the middle of the run, or the last move if later, until
	// the trainers stopped sending.
	Measured float64 `json:"measured"`
	// Moves counts the peers that moved; Lost the microbatches sent again
	// after a failure.
	Moves int `json:"moves"`
	Lost  int `json:"lost"`
	// Visits counts the stage forwards computed, resent microbatches'
	// included: M·(S − k) for M microbatches skipping k stages each.
	Visits int `json:"visits"`
	// Settled is when the last move ended (0: none).
	Settled units.Time `json:"settled"`
}

// newRecord starts the record: the closed form for the first placement.
func newRecord(x *sim) *Record { return &Record{Stages: x.y.Stages, Initial: rate(x)} }

// rate is the closed form X = min_s R_s / (F + B), microbatches a second.
func rate(x *sim) float64 {
	return slices.Min(x.rates()) / (x.s.Compute.Forward + x.s.Compute.Backward).Seconds()
}

// measure fills the record from the finished run and puts it on tl.
func (r *Record) measure(x *sim, tl *timeline.Timeline) {
	tl.Extra = map[string]timeline.Record{Name: r}
	for _, sp := range tl.Spans {
		if sp.Kind == timeline.Forward {
			r.Visits++
		}
	}
	r.Final, r.Settled = rate(x), x.moveEnd
	for _, p := range x.peers {
		s := p.stage
		if !p.alive {
			s = -1
		}
		r.Peers = append(r.Peers, s)
	}
	// The steady state: from the middle of the run (or the last move)
	// until the trainers stop sending, cap microbatches before the end.
	n := len(x.done)
	i := max(n/2, sort.Search(n, func(i int) bool { return x.done[i] > x.moveEnd }))
	j := max(n-1-x.cap, i+1)
	if j < n && x.done[j] > x.done[i] {
		r.Measured = float64(j-i) / (x.done[j] - x.done[i]).Seconds()
	}
}

// Check holds the record to the run: one stage, or −1, per peer.
func (r *Record) Check(tl *timeline.Timeline) []error {
	if len(r.Peers) != len(tl.GPUs) || slices.ContainsFunc(r.Peers, func(s int) bool { return s < -1 || s >= r.Stages }) {
		return []error{errors.New("swarm: the record's peers do not match the run's GPUs and stages")}
	}
	return nil
}

// Report is the record's part of the summary (the browser build writes
// no summary text: record_js.go).
func (r *Record) Report(*timeline.Timeline, *timeline.Summary) timeline.Report { return r }

// WriteText prints the swarm's lines of the summary.
func (r *Record) WriteText(w io.Writer) {
	fmt.Fprintf(w, "  swarm rate            %.3g microbatches/s (min over stages of summed peer speed: %.3g; at the start %.3g)\n", r.Measured, r.Final, r.Initial)
	fmt.Fprintf(w, "  swarm peers           stages %v, %d moved, %d microbatches sent again\n", r.Peers, r.Moves, r.Lost)
}
