package site

import (
	"fmt"
	"strings"

	"paraplay/sim/fault"
	"paraplay/sim/strategy"
	"paraplay/sim/units"
)

// captionText writes a demo's caption from the parts its strategy lists:
// each part's text with its values written in their units, the parts
// joined by " · ". The site only writes; every number, and every closed
// form beside a simulated figure, comes from the strategy.
func captionText(parts []strategy.Part) (string, error) {
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if err := p.Validate(); err != nil {
			return "", err
		}
		text := p.Text
		for _, v := range p.Values {
			text = strings.Replace(text, "{}", formatValue(v), 1)
		}
		out = append(out, text)
	}
	return strings.Join(out, " · "), nil
}

// formatValue writes one figure in its unit.
func formatValue(v strategy.Value) string {
	switch v.Unit {
	case strategy.Int:
		return fmt.Sprintf("%d", int64(v.V))
	case strategy.Sig2:
		return fmt.Sprintf("%.2g", v.V)
	case strategy.Sig3:
		return fmt.Sprintf("%.3g", v.V)
	case strategy.Count:
		return roundCount(v.V)
	case strategy.Nanoseconds:
		return roundTime(units.Time(v.V))
	case strategy.Percent:
		return pct(v.V)
	case strategy.GiB:
		return gib(units.Bytes(v.V))
	case strategy.KiB:
		return kib(units.Bytes(v.V))
	case strategy.Size:
		return bytesText(units.Bytes(v.V))
	case strategy.GBps:
		return fmt.Sprintf("%.3g GB/s", v.V/1e9)
	case strategy.Dollars:
		return fmt.Sprintf("%.3f", v.V)
	case strategy.Fixed2:
		return fmt.Sprintf("%.2f", v.V)
	case strategy.Human:
		return fault.Human(units.Time(v.V))
	case strategy.Days:
		return days(units.Time(v.V))
	}
	return fmt.Sprint(v.V)
}

// ns is a time as a caption's figure.
func ns(t units.Time) strategy.Value {
	return strategy.Value{V: float64(t), Unit: strategy.Nanoseconds}
}

// whole is a whole number as a caption's figure.
func whole(n int) strategy.Value { return strategy.Value{V: float64(n), Unit: strategy.Int} }

// size is bytes as a caption's figure, in GiB or MiB.
func size(b units.Bytes) strategy.Value { return strategy.Value{V: float64(b), Unit: strategy.Size} }
