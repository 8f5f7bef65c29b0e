package budget

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// Limits is a budget: the most work of each kind a run may ask for.
type Limits struct {
	// Who names the budget in a refusal: "the browser allows 200 k".
	Who string
	// Events, Transfers and Spans bound the counts of Work.
	Events, Transfers, Spans float64
	// TraceBytes bounds the Chrome trace; +Inf when no trace is written.
	TraceBytes float64
	// Memory bounds Work.Memory, in bytes.
	Memory float64
}

// CLI is the command line's default budget: generous, and safe when
// several runs share a 24 GB machine (memory under 2 GB a run, the
// allocation bound being above the peak heap). The 30-day Llama 3 405B
// run of sim/scenario/testdata/long (2.6 M spans) fits.
var CLI = Limits{Who: "the command line allows", Events: 60e6, Transfers: 10e6, Spans: 12e6,
	TraceBytes: 4e9, Memory: 1.5 * float64(units.GiB)}

// Browser is the web app's budget, smaller: a tab's wasm heap also holds
// the scene's frames, and runs that allocated 1.7 GB on the command line
// crashed it.
var Browser = Limits{Who: "the browser allows", Events: 2e6, Transfers: 200e3, Spans: 500e3,
	TraceBytes: math.Inf(1), Memory: 384 * float64(units.MiB)}

// Check refuses work over the limits, with a *scenario.FieldError naming
// the field that drives it: "collective.chunks: 512 GPUs × 64
// collective.chunks (ring all-reduce) = 33.5 M transfers; the browser
// allows 200 k: lower collective.chunks or use fewer GPUs". The first kind over its limit is reported, in the
// order transfers, spans, events, memory, trace.
func (l Limits) Check(w Work) error {
	if w.Refused != nil {
		return w.Refused
	}
	if !w.finite() {
		return &scenario.FieldError{Field: "scenario", Msg: "its work cannot be bounded (a bound is not finite)"}
	}
	for _, k := range []struct {
		c     Count
		limit float64
		unit  string
		bytes bool
	}{
		{w.Transfers, l.Transfers, "transfers", false}, {w.Spans, l.Spans, "spans", false},
		{w.Events, l.Events, "events", false}, {w.Memory, l.Memory, "of memory", true},
		{w.TraceBytes, l.TraceBytes, "of Chrome trace", true},
	} {
		if k.c.N <= k.limit {
			continue
		}
		field := k.c.Field
		if field == "" {
			field = "scenario"
		}
		unit := k.unit
		if k.c.Unit != "" {
			unit = k.c.Unit
		}
		show := Short
		if k.bytes {
			show = Size
		}
		msg := fmt.Sprintf("%s = %s %s; %s %s", k.c.Why, show(k.c.N), unit, l.Who, show(k.limit))
		if k.c.Why == "" {
			msg = fmt.Sprintf("%s %s; %s %s", show(k.c.N), unit, l.Who, show(k.limit))
		}
		if k.c.Fix != "" {
			msg += ": " + k.c.Fix
		}
		return &scenario.FieldError{Field: field, Msg: msg}
	}
	return nil
}

// Short writes a count with k, M, G or T to two or three significant
// digits: "1.7 M", "523 k", "200 k"; beyond T, in powers of ten.
func Short(v float64) string {
	if v >= 1e15 {
		return strconv.FormatFloat(v, 'e', 1, 64)
	}
	for _, u := range []struct {
		div  float64
		name string
	}{{1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"}} {
		if v >= u.div {
			return digits(v/u.div) + u.name
		}
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// Size writes bytes in KiB, MiB, GiB or TiB to two or three significant
// digits: "1.5 GiB", "384 MiB".
func Size(v float64) string {
	for _, u := range []struct {
		div  float64
		name string
	}{{float64(units.TiB), " TiB"}, {float64(units.GiB), " GiB"}, {float64(units.MiB), " MiB"}, {float64(units.KiB), " KiB"}} {
		if v >= u.div {
			if x := v / u.div; x < 1e4 || u.div == float64(units.TiB) {
				return digits(x) + u.name
			}
		}
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " B"
}

// digits writes x ≥ 1 without an exponent: whole from 100, one decimal
// from 10, two below, trailing zeros dropped.
func digits(x float64) string {
	prec := 2
	switch {
	case x >= 100:
		prec = 0
	case x >= 10:
		prec = 1
	}
	out := strconv.FormatFloat(x, 'f', prec, 64)
	if strings.Contains(out, ".") {
		out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
	return out
}

// Parse reads a budget as the command line's --budget gives it: "cli"
// (the default), "browser", or a comma-separated list of key=value that
// change the command line's: events=, transfers=, spans= (counts, with an
// optional k, M or G), memory= and trace= (sizes, e.g. 4GiB).
func Parse(text string) (Limits, error) {
	switch text {
	case "", "cli":
		return CLI, nil
	case "browser":
		l := Browser
		l.Who = "the browser's budget (--budget browser) allows"
		return l, nil
	}
	l := CLI
	l.Who = "--budget allows"
	for _, part := range strings.Split(text, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Limits{}, fmt.Errorf("--budget: %q is not key=value; want cli, browser, or events=, transfers=, spans=, memory=, trace= separated by commas", part)
		}
		var err error
		switch key {
		case "events":
			l.Events, err = parseCount(value)
		case "transfers":
			l.Transfers, err = parseCount(value)
		case "spans":
			l.Spans, err = parseCount(value)
		case "memory", "trace":
			var b units.Bytes
			b, err = units.ParseBytes(value)
			if err == nil && b <= 0 {
				err = fmt.Errorf("want a size > 0")
			}
			if key == "memory" {
				l.Memory = float64(b)
			} else {
				l.TraceBytes = float64(b)
			}
		default:
			return Limits{}, fmt.Errorf("--budget: unknown key %q; allowed: events, transfers, spans, memory, trace", key)
		}
		if err != nil {
			return Limits{}, fmt.Errorf("--budget: %s=%s: %v", key, value, err)
		}
	}
	return l, nil
}

// parseCount reads a count > 0 with an optional suffix k, M or G.
func parseCount(v string) (float64, error) {
	mult := 1.0
	switch {
	case strings.HasSuffix(v, "k"):
		mult, v = 1e3, strings.TrimSuffix(v, "k")
	case strings.HasSuffix(v, "M"):
		mult, v = 1e6, strings.TrimSuffix(v, "M")
	case strings.HasSuffix(v, "G"):
		mult, v = 1e9, strings.TrimSuffix(v, "G")
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || !(n > 0 && n*mult < 1e18) {
		return 0, fmt.Errorf("want a count > 0 (at most 1e18), e.g. 500k or 20M")
	}
	return n * mult, nil
}
