package playground

import (
	"fmt"
	"slices"
	"sort"

	"paraplay/sim/fault"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/training"
	"paraplay/sim/units"
)

// A long run (a training scenario with failures.duration set) plays as
// the scene's long-run view: its wall time, days of it, scaled so that
// the whole run plays in LongRunSeconds at ×1.
const LongRunSeconds = 40

// MaxLongRunGPUs bounds the long runs the browser simulates. The replay of
// failures takes milliseconds, but the one analytic iteration it starts
// from grows with the cluster: Llama 3 405B on 16,384 GPUs takes ~15 s and
// ~740 MB natively (paraplay run, 2 cores), several times that in wasm.
const MaxLongRunGPUs = 4096

// IsLongRun reports whether s is a long run: a training scenario with a
// failures.duration.
func IsLongRun(s scenario.Scenario) bool {
	return s.Uses("failures") && s.Failures.Duration > 0
}

// LongRun simulates the long run of s: one analytic iteration, then its
// duration of failures and recoveries (training.NewLong). Too large a cluster
// is an error that says where to run it instead.
func LongRun(s scenario.Scenario) (fault.Report, error) {
	if n := s.NumGPUs(); n > MaxLongRunGPUs {
		return fault.Report{}, &scenario.FieldError{Field: "failures.duration", Msg: fmt.Sprintf(
			"a long run on %d GPUs is too large for the browser (at most %d: its one analytic iteration alone takes seconds and hundreds of MB); run it with: paraplay run FILE --duration %s",
			n, MaxLongRunGPUs, s.Failures.Duration)}
	}
	l, err := training.NewLong(s, s.Failures.Duration, 0)
	if err != nil {
		return fault.Report{}, err
	}
	return l.Run()
}

// NewLongClock starts a clock on a long run: its end is the run's wall
// time, its pace LongRunSeconds for the whole run at ×1, and its step
// keys jump from failure to failure.
func NewLongClock(rep fault.Report, v View) *Clock {
	c := &Clock{End: rep.Wall, Playing: v.Autoplay, Loop: v.Loop, Speed: clampSpeed(v.Speed)}
	c.base = max(float64(rep.Wall)/LongRunSeconds, 1)
	c.events = []units.Time{0, rep.Wall}
	for _, h := range rep.Hits {
		c.events = append(c.events, h.At)
	}
	sort.Slice(c.events, func(i, j int) bool { return c.events[i] < c.events[j] })
	c.events = slices.Compact(c.events)
	c.T = min(max(v.Start, 0), c.End)
	return c
}

// LongMetrics is the metrics panel of a long run: its headline numbers
// (the scene's panel shows the same) and the time lost by category.
func LongMetrics(rep fault.Report, title string) Metrics {
	m := Metrics{Title: title, Fidelity: "long run (analytic iteration)"}
	for _, r := range scene.LongHeadline(rep) {
		m.Rows = append(m.Rows, MetricRow{r.Label, r.Value})
	}
	l := rep.Lost
	for _, c := range []struct {
		name string
		t    units.Time
	}{{"lost work", l.Work}, {"restart", l.Restart}, {"detection", l.Detection}, {"reconfigure", l.Reconfigure},
		{"checkpoint writes", l.Checkpoint}, {"degraded", l.Degraded}} {
		m.Rows = append(m.Rows, MetricRow{c.name, fault.Human(c.t)})
	}
	return m
}
