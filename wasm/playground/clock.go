package playground

import (
	"slices"
	"sort"

	"paraplay/sim/scene"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Playback pacing. Speed multiplies scene.PlaybackRate: 1.5 ms of
// simulated time per real second, so two demos at the same speed are
// directly comparable, unless a run would last under 4 s or over 30 s at
// that rate and plays in 8 s instead. GIF exports use the same pace.
const (
	// EndHold is how long, in real seconds, the last frame holds before a
	// looping run starts over.
	EndHold = scene.HoldLast
	// MinSpeed and MaxSpeed bound the multiplier: four decades, which the
	// page's speed slider spans on a log scale.
	MinSpeed = 0.1
	MaxSpeed = 1000
)

// Clock is the viewer's clock: where in the run we are, whether time moves,
// how fast, and whether it loops. It never touches the timeline it reads.
type Clock struct {
	// T is the instant shown, 0..End.
	T units.Time
	// End is the end of the run.
	End units.Time
	// Playing says whether Tick moves T.
	Playing bool
	// Loop starts over after the end (after EndHold); otherwise playback
	// pauses at the end.
	Loop bool
	// Speed multiplies the base rate, MinSpeed..MaxSpeed.
	Speed float64

	base   float64 // simulated ns per real second at ×1
	hold   float64 // real seconds left to hold at the end
	events []units.Time
}

// NewClock starts a clock on tl as the view asks.
func NewClock(tl *timeline.Timeline, v View) *Clock {
	c := &Clock{End: tl.End, Playing: v.Autoplay, Loop: v.Loop, Speed: clampSpeed(v.Speed), events: EventTimes(tl)}
	c.base = scene.PlaybackRate(tl.End) // the pace GIF exports use too
	if v.Present {                      // a clicker steps from one beginning to the next
		c.events = scene.PresenterEvents(tl)
	}
	c.T = min(max(v.Start, 0), c.End)
	return c
}

// EventTimes lists, sorted and unique, every instant something starts or
// ends: the stops of the step keys.
func EventTimes(tl *timeline.Timeline) []units.Time {
	ts := make([]units.Time, 0, 2+2*len(tl.Spans)+2*tl.Transfers.Len()+2*len(tl.Collectives))
	ts = append(ts, 0, tl.End)
	for _, s := range tl.Spans {
		ts = append(ts, s.Start, s.End)
	}
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		ts = append(ts, x.Start, x.End)
	}
	for _, c := range tl.Collectives {
		ts = append(ts, c.Start, c.End)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return slices.Compact(ts)
}

// Tick advances the clock by dt real seconds.
func (c *Clock) Tick(dt float64) {
	if !c.Playing || dt <= 0 {
		return
	}
	if c.T >= c.End {
		if !c.Loop {
			c.Playing = false
			return
		}
		if c.hold -= dt; c.hold <= 0 {
			c.T = 0
		}
		return
	}
	step := units.Time(c.base * c.Speed * dt)
	c.T = min(c.T+max(step, 1), c.End)
	if c.T == c.End {
		c.hold = EndHold
		if !c.Loop {
			c.Playing = false
		}
	}
}

// Toggle plays or pauses; playing from the very end starts over.
func (c *Clock) Toggle() {
	c.Playing = !c.Playing
	if c.Playing && c.T >= c.End {
		c.T = 0
	}
}

// Step jumps n events forward (n > 0) or back (n < 0) and pauses.
func (c *Clock) Step(n int) {
	for ; n > 0; n-- {
		i, found := slices.BinarySearch(c.events, c.T)
		if found {
			i++
		}
		if i < len(c.events) {
			c.T = c.events[i]
		}
	}
	for ; n < 0; n++ {
		if i, _ := slices.BinarySearch(c.events, c.T); i > 0 {
			c.T = c.events[i-1]
		}
	}
	c.Playing = false
}

// Seek shows instant t (clamped into the run) without changing Playing.
func (c *Clock) Seek(t units.Time) { c.T, c.hold = min(max(t, 0), c.End), EndHold }

// SetSpeed sets the multiplier, clamped to MinSpeed..MaxSpeed.
func (c *Clock) SetSpeed(s float64) { c.Speed = clampSpeed(s) }

// Restart goes back to 0 and plays.
func (c *Clock) Restart() { c.T, c.Playing, c.hold = 0, true, 0 }

// ToEnd shows the end of the run, paused.
func (c *Clock) ToEnd() { c.T, c.Playing, c.hold = c.End, false, EndHold }

func clampSpeed(s float64) float64 {
	if !(s >= MinSpeed) { // also NaN
		return MinSpeed
	}
	return min(s, MaxSpeed)
}
