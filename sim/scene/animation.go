package scene

import (
	"errors"
	"fmt"
	"math"

	"paraplay/sim/units"
)

// Playback pacing, shared by the browser's clock and the exporters so that
// a GIF plays at the speed the page does. Speed 1 shows BaseRate of
// simulated time per real second; a run that would then last under
// MinRunSeconds or over MaxRunSeconds is paced to last TargetSeconds.
const (
	BaseRate      = 1.5e-3 // simulated seconds per real second at ×1
	TargetSeconds = 8.0
	MinRunSeconds = 4.0
	MaxRunSeconds = 30.0
)

// PlaybackRate is how many simulated nanoseconds one real second shows at
// speed 1 for a run that ends at end.
func PlaybackRate(end units.Time) float64 {
	rate := BaseRate * 1e9
	if secs := float64(end) / rate; secs < MinRunSeconds || secs > MaxRunSeconds {
		rate = float64(end) / TargetSeconds
	}
	return max(rate, 1)
}

// Bounds of an Animation.
const (
	MinFPS = 1
	MaxFPS = 50 // GIF delays are in hundredths of a second
	// MaxFrames bounds an export's memory and time (a minute at 50 fps).
	MaxFrames = 3000
	// HoldLast is how long, in seconds, the last frame of an animation
	// stays before it loops, as the page holds the end of a run.
	HoldLast = 1.0
)

// Animation says which frames of a run to export.
type Animation struct {
	// Options size (and theme) every frame; zero sizes mean the defaults.
	Options Options
	// FPS is the number of frames per real second, MinFPS..MaxFPS.
	FPS float64
	// From and To bound the simulated time shown; To == 0 means the end
	// of the run. 0 ≤ From < To ≤ the run's end.
	From, To units.Time
	// Speed multiplies the playback rate (PlaybackRate), 0.01..1000: 2
	// plays twice as fast and gives half the frames.
	Speed float64
}

// Validate reports a field out of range. end is the run's end, which
// bounds From and To; the frame count must not exceed MaxFrames.
func (a Animation) Validate(end units.Time) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, errorf("scene: "+format, args)) }
	errs = append(errs, a.Options.Validate())
	if math.IsNaN(a.FPS) || a.FPS < MinFPS || a.FPS > MaxFPS {
		bad("fps is %v; want %d..%d frames per second", a.FPS, MinFPS, MaxFPS)
	}
	if math.IsNaN(a.Speed) || a.Speed < 0.01 || a.Speed > 1000 {
		bad("speed is %v; want a multiplier 0.01..1000", a.Speed)
	}
	to := a.end(end)
	switch {
	case a.From < 0 || a.From > end:
		bad("from is %v; want 0..%v (the run's end)", a.From, end)
	case a.To < 0 || a.To > end:
		bad("to is %v; want 0..%v (the run's end; 0 means the end)", a.To, end)
	case to <= a.From && end > 0:
		bad("from %v is not before to %v", a.From, to)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := CheckGIFArea(a.Options); err != nil {
		return err
	}
	if n := a.FrameCount(end); n > MaxFrames {
		return fmt.Errorf("scene: %d frames; want at most %d (lower fps, raise speed or shorten from..to)", n, MaxFrames)
	}
	return nil
}

func (a Animation) end(end units.Time) units.Time {
	if a.To == 0 {
		return end
	}
	return a.To
}

// step is the simulated time between two frames.
func (a Animation) step(end units.Time) float64 {
	return PlaybackRate(end) * a.Speed / a.FPS
}

// FrameCount is how many frames the animation of a run ending at end has:
// one every step of simulated time from From, and the last at To.
func (a Animation) FrameCount(end units.Time) int {
	to := a.end(end)
	span := float64(to - a.From)
	if span <= 0 {
		return 1
	}
	return int(math.Ceil(span/a.step(end)-1e-9)) + 1
}

// FrameTime is the instant frame k shows, the last one exactly To.
func (a Animation) FrameTime(k int, end units.Time) units.Time {
	to := a.end(end)
	t := a.From + units.Time(math.Round(float64(k)*a.step(end)))
	if k >= a.FrameCount(end)-1 || t > to {
		return to
	}
	return t
}

// Delay is how long frame k stays, in hundredths of a second: rounded so
// that the delays add up to the animation's real length (15 fps gives 7, 7
// and 6), and HoldLast for the last frame.
func (a Animation) Delay(k int, end units.Time) int {
	if k >= a.FrameCount(end)-1 {
		return int(math.Round(HoldLast * 100))
	}
	at := func(k int) int { return int(math.Round(float64(k) * 100 / a.FPS)) }
	return max(at(k+1)-at(k), 1)
}

// CheckGIFArea refuses a GIF frame of more than MaxGIFPixels, which the
// encoder could not hold in bounded memory (o's sizes are valid).
func CheckGIFArea(o Options) error {
	if w, h := o.size(); math.Ceil(w)*math.Ceil(h) > MaxGIFPixels {
		return fmt.Errorf("scene: a GIF frame of %v×%v pixels is more than %d M pixels (8192×8192): encoding holds about %d bytes a pixel (the RGBA canvas and two frames of palette indices); lower width or height, or draw a PNG",
			w, h, MaxGIFPixels>>20, gifBytesPerPixel)
	}
	return nil
}

// errorf is fmt.Errorf of format and args. It is not inlined: validators call it
// from dozens of places, and the expanded call at each costs the
// browser's download a few hundred bytes.
//
//go:noinline
func errorf(format string, args []any) error { return fmt.Errorf(format, args...) }
