package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// suffixUnit is one unit a parser accepts: the suffix written after the
// number and the unit's size in the type's base unit (ns, B, B/s).
type suffixUnit struct {
	suffix string
	size   float64
}

// parseSuffixed reads a number followed by one of units, tried in order, and
// returns the number times the unit's size; ok is false when no unit fits.
// A unit fits when s ends in its suffix and the rest is a number (and a
// positive one if positive): "ms" also ends in "s", so a split is only
// accepted if what is left parses, and longer suffixes must come first.
func parseSuffixed(s string, units []suffixUnit, positive bool) (v float64, ok bool) {
	in := strings.TrimSpace(s)
	for _, u := range units {
		num, ok := strings.CutSuffix(in, u.suffix)
		if !ok {
			continue
		}
		v, err := parseNumber(strings.TrimSpace(num))
		if err != nil || positive && v == 0 {
			continue
		}
		return v * u.size, true
	}
	return 0, false
}

// parseNumber accepts finite, non-negative decimal numbers only (no hex, no
// Inf/NaN, no sign), which keeps fuzzed and URL input well-behaved.
func parseNumber(s string) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("empty number")
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' && r != 'e' && r != 'E' && r != '-' && r != '+' {
			return 0, fmt.Errorf("invalid number %q", s)
		}
	}
	if s[0] == '-' || s[0] == '+' || s[0] == 'e' || s[0] == 'E' {
		return 0, fmt.Errorf("invalid number %q", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("invalid number %q", s)
	}
	return v, nil
}
