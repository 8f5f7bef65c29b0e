package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Time is simulated time or a duration, in integer nanoseconds. Integer time
// keeps runs deterministic across platforms: no floating-point accumulation.
type Time int64

// Common durations.
const (
	Nanosecond  Time = 1
	Microsecond Time = 1000 * Nanosecond
	Millisecond Time = 1000 * Microsecond
	Second      Time = 1000 * Millisecond
)

// MaxTime is the largest representable instant; parsers reject anything
// beyond it.
const MaxTime Time = math.MaxInt64

// Round converts a real-valued number of seconds to Time, rounding half away
// from zero. It is the one place where the simulator rounds costs, so that
// every cost model rounds the same way.
func Round(seconds float64) Time {
	ns := math.Round(seconds * 1e9)
	if ns >= math.MaxInt64 {
		return MaxTime
	}
	if ns <= math.MinInt64 {
		return math.MinInt64
	}
	return Time(ns)
}

// Seconds returns t in seconds.
func (t Time) Seconds() float64 { return float64(t) / 1e9 }

// Microseconds returns t in microseconds (the unit of Chrome traces).
func (t Time) Microseconds() float64 { return float64(t) / 1e3 }

// String prints t with the largest unit that keeps at least one whole digit,
// e.g. "1.5ms", "12µs", "3s".
func (t Time) String() string {
	unit, div := t.unit()
	if unit == "ns" {
		return strconv.FormatInt(int64(t), 10) + "ns"
	}
	return strconv.FormatFloat(float64(t)/div, 'f', -1, 64) + unit
}

// Rounded prints t like String but to the given significant digits
// ("12.25ms" for 12.248082ms at 4), for a display where exact digits are
// noise, such as a running clock. Beyond 10^digits of the largest unit it
// prints whole units ("12345s").
func (t Time) Rounded(digits int) string {
	unit, div := t.unit()
	v := float64(t) / div
	s := strconv.FormatFloat(v, 'g', digits, 64)
	if strings.ContainsRune(s, 'e') {
		s = strconv.FormatFloat(v, 'f', 0, 64)
	}
	return s + unit
}

// unit is the largest unit that keeps at least one whole digit of |t|, and
// its size in nanoseconds.
func (t Time) unit() (string, float64) {
	abs := t
	if abs < 0 {
		abs = -abs
	}
	switch {
	case abs >= Second:
		return "s", 1e9
	case abs >= Millisecond:
		return "ms", 1e6
	case abs >= Microsecond:
		return "µs", 1e3
	}
	return "ns", 1
}

var timeUnits = []suffixUnit{
	// Longer suffixes first so "ms" is not read as "m" + "s".
	{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9},
	// Minutes, hours and days, for long runs and checkpoint intervals.
	{"m", 60e9}, {"h", 3600e9}, {"d", 86400e9},
}

// ParseTime reads a duration such as "5us", "2.5ms", "1s", "750ns", "30m",
// "24h" or "30d" (m = minutes, d = days of 24 hours). A unit
// is required: a bare number is ambiguous and rejected. Negative values are
// rejected too: no cost in the simulator is negative.
func ParseTime(s string) (Time, error) {
	ns, ok := parseSuffixed(s, timeUnits, false)
	if !ok {
		return 0, fmt.Errorf("invalid duration %q: want a non-negative number with a unit ns, us, ms, s, m, h or d (e.g. 2ms, 30m)", s)
	}
	if ns >= float64(MaxTime) {
		return 0, fmt.Errorf("duration %q is too large", s)
	}
	return Time(math.Round(ns)), nil
}
