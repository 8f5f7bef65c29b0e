//go:build js && wasm

package main

import (
	"slices"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Playback pacing. See the package comment for the definition of speed.
const (
	baseRate      = 1.5e-3 // simulated seconds per real second at ×1
	targetLength  = 8.0    // real seconds a run lasts at ×1 when rescaled
	minRunSeconds = 4.0
	maxRunSeconds = 30.0
	endHoldTicks  = 60 // ticks to hold the last frame before looping (1 s at 60 TPS)
)

// playback is the viewer's clock: where in the run we are, whether time
// moves, and how fast. It never touches the timeline it reads.
type playback struct {
	t       units.Time
	end     units.Time
	playing bool
	speed   float64 // multiplier of base
	base    float64 // simulated ns per real second at ×1
	hold    int     // ticks left to hold at the end before looping
	events  []units.Time
}

func newPlayback(tl *timeline.Timeline, v view) *playback {
	p := &playback{end: tl.End, playing: v.Autoplay, speed: v.Speed, events: eventTimes(tl)}
	p.base = baseRate * 1e9
	if secs := float64(tl.End) / p.base; secs < minRunSeconds || secs > maxRunSeconds {
		p.base = float64(tl.End) / targetLength
	}
	p.t = min(max(v.Start, 0), p.end)
	return p
}

// eventTimes lists, sorted and unique, every instant something starts or
// ends: the stops of the step keys.
func eventTimes(tl *timeline.Timeline) []units.Time {
	ts := []units.Time{0, tl.End}
	for _, s := range tl.Spans {
		ts = append(ts, s.Start, s.End)
	}
	for _, x := range tl.Transfers {
		ts = append(ts, x.Start, x.End)
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

// tick advances the clock by one tick of 1/tps real seconds.
func (p *playback) tick(tps float64) {
	if !p.playing {
		return
	}
	if p.t >= p.end {
		if p.hold--; p.hold <= 0 {
			p.t = 0
		}
		return
	}
	step := units.Time(p.base * p.speed / tps)
	p.t = min(p.t+max(step, 1), p.end)
	if p.t == p.end {
		p.hold = endHoldTicks
	}
}

// toggle plays or pauses; playing from the very end starts over.
func (p *playback) toggle() {
	p.playing = !p.playing
	if p.playing && p.t >= p.end {
		p.t = 0
	}
}

// next jumps to the first event after t and pauses.
func (p *playback) next() {
	i, found := slices.BinarySearch(p.events, p.t)
	if found {
		i++
	}
	if i < len(p.events) {
		p.t = p.events[i]
	}
	p.playing = false
}

// prev jumps to the last event before t and pauses.
func (p *playback) prev() {
	i, _ := slices.BinarySearch(p.events, p.t)
	if i > 0 {
		p.t = p.events[i-1]
	}
	p.playing = false
}

// faster and slower double or halve the speed within minSpeed..maxSpeed.
func (p *playback) faster() { p.speed = min(p.speed*2, maxSpeed) }
func (p *playback) slower() { p.speed = max(p.speed/2, minSpeed) }

// restart goes back to 0 and plays.
func (p *playback) restart() { p.t, p.playing, p.hold = 0, true, 0 }
