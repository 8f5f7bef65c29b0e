package kineto

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"paraplay/sim/units"
)

// maxMicros bounds a time in microseconds so that it fits in int64
// nanoseconds: about 106 days past the clock's zero, far above Kineto's
// epoch-based clocks (1.7e15 µs in 2024).
const maxMicros = math.MaxInt64 / 1000

var errRange = errors.New("out of range")

// micros reads a JSON number of microseconds as whole nanoseconds,
// exactly: Kineto writes "1682725898236567" or "4458676522690.655", and at
// 1.7e15 µs a float64 would lose the nanoseconds (it rounds to 0.25 µs).
// Digits past the nanosecond round half up; an exponent ("1.5e3") goes
// through float64. Empty (the field was absent) reads as 0.
func micros(s string) (units.Time, error) {
	if s == "" {
		return 0, nil
	}
	if strings.ContainsAny(s, "eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.Abs(f) >= maxMicros {
			return 0, errRange
		}
		return units.Time(math.Round(f * 1000)), nil
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w >= maxMicros {
		return 0, errRange
	}
	ns := w * 1000
	for i := range 3 {
		ns += int64(digit(frac, i)) * [3]int64{100, 10, 1}[i]
	}
	if digit(frac, 3) >= 5 {
		ns++
	}
	for i := range len(frac) {
		if frac[i] < '0' || frac[i] > '9' {
			return 0, errRange
		}
	}
	if neg {
		ns = -ns
	}
	return units.Time(ns), nil
}

// digit is the i-th digit of s, 0 past its end.
func digit(s string, i int) int {
	if i >= len(s) || s[i] < '0' || s[i] > '9' {
		return 0
	}
	return int(s[i] - '0')
}

// integer reads a JSON number that should be a whole number (an id, a
// count, a size); empty reads as 0. A fraction or exponent is accepted when
// it names a whole number within int64 ("7.0", "1e3").
func integer(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<62 {
		return 0, errRange
	}
	return int64(f), nil
}
