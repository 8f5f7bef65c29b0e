package site

import (
	"fmt"
	"strings"

	"paraplay/sim/fault"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// captionMetrics is a demo's caption: the parts its strategy lists
// (strategy.Strategy's Caption), every figure computed at build time from
// the scenario and its run, never typed by an author. Where a closed form
// prices the same thing, the part sets it beside the simulated figure, so a
// reader (and TestCaptionChecksAgree) can see the two agree.
func captionMetrics(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	st, ok := run.Lookup(s.Strategy)
	if !ok {
		return nil, fmt.Errorf("strategy %q is not registered", s.Strategy)
	}
	return st.Caption(s, tl, sum)
}

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

// pct prints a fraction as a percentage with one decimal: "27.3%".
func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// gib prints bytes in GiB to one decimal.
func gib(b units.Bytes) string { return fmt.Sprintf("%.1f GiB", float64(b)/float64(units.GiB)) }

// roundCount prints a rate to three significant digits: "92.2k".
func roundCount(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.3gM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.3gk", x/1e3)
	}
	return fmt.Sprintf("%.3g", x)
}

// bytesText prints bytes in GiB or MiB to three significant digits.
func bytesText(b units.Bytes) string {
	if b >= units.GiB {
		return fmt.Sprintf("%.3g GiB", float64(b)/float64(units.GiB))
	}
	return fmt.Sprintf("%.3g MiB", float64(b)/float64(units.MiB))
}

// kib prints bytes in KiB to three significant digits.
func kib(b units.Bytes) string { return fmt.Sprintf("%.3g KiB", float64(b)/float64(units.KiB)) }

// days prints a long duration in days: "30-day".
func days(t units.Time) string {
	d := t.Seconds() / 86400
	if d == float64(int(d)) {
		return fmt.Sprintf("%d-day", int(d))
	}
	return fault.Human(t)
}
