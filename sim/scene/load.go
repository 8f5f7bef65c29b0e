package scene

import (
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// rateAt is the rate x sends at instant t in bytes per second: zero outside
// [Start, End) and during its latency, before its first Rates entry.
func rateAt(x *timeline.Transfer, t units.Time) float64 {
	if !(x.Start <= t && t < x.End) {
		return 0
	}
	var r float64
	for _, e := range x.Rates {
		if e.At > t {
			break
		}
		r = e.BytesPerSecond
	}
	return max(r, 0)
}

// loads returns, by link id, the utilisation of each link at t: the sum of
// the rates of the transfers crossing it divided by its bandwidth (0 for a
// link without a bandwidth).
func loads(tl *timeline.Timeline, t units.Time) []float64 {
	return loadsOf(tl, t, inFlight(tl, t))
}

// loadsOf is loads given the transfers in flight at t.
func loadsOf(tl *timeline.Timeline, t units.Time, live []int32) []float64 {
	return loadsInto(nil, tl, t, live)
}

// loadsInto is loadsOf reusing buf's storage.
func loadsInto(buf []float64, tl *timeline.Timeline, t units.Time, live []int32) []float64 {
	sum := buf[:0]
	if cap(sum) < len(tl.Links) {
		sum = make([]float64, len(tl.Links))
	}
	sum = sum[:len(tl.Links)]
	clear(sum)
	for _, i := range live {
		x := tl.Transfers.At(int(i))
		r := rateAt(&x, t)
		if r == 0 {
			continue
		}
		for _, id := range x.Path {
			if id >= 0 && id < len(sum) {
				sum[id] += r
			}
		}
	}
	for i, l := range tl.Links {
		if l.Bandwidth > 0 {
			sum[i] /= float64(l.Bandwidth)
		} else {
			sum[i] = 0
		}
	}
	return sum
}

// loadRamp is a sequential ramp (ColorBrewer YlOrRd) that reads in order of
// lightness, so it survives colour-blindness and greyscale printing.
var loadRamp = [...]Color{
	{0xfe, 0xd9, 0x76, 0xff}, // light yellow, a trickle
	{0xfd, 0x8d, 0x3c, 0xff}, // orange
	{0xe3, 0x1a, 0x1c, 0xff}, // red
	{0x80, 0x00, 0x26, 0xff}, // dark red, full
}

// loadColor is the colour of a link at utilisation u: grey when idle, then
// along loadRamp up to full (and beyond, clamped).
func loadColor(u float64) Color {
	if !(u > 0) {
		return colLink
	}
	f := min(u, 1) * float64(len(loadRamp)-1)
	i := min(int(f), len(loadRamp)-2)
	return mix(loadRamp[i], loadRamp[i+1], f-float64(i))
}

// mix interpolates between two opaque colours.
func mix(a, b Color, f float64) Color {
	c := func(x, y uint8) uint8 { return uint8(float64(x) + f*(float64(y)-float64(x)) + 0.5) }
	return Color{c(a.R, b.R), c(a.G, b.G), c(a.B, b.B), 0xff}
}
