//go:build js

package swarm

import "paraplay/sim/timeline"

// Record counts a run's moves and resent microbatches; the browser, which
// writes no captions or summary text, keeps no more (record.go has the
// host's record, which goes on the timeline).
type Record struct{ Moves, Lost int }

func newRecord(*sim) *Record { return &Record{} }

func (*Record) measure(*sim, *timeline.Timeline) {}
