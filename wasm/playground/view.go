package playground

import (
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// View holds the viewer's own URL parameters (scenario.ViewParams).
type View struct {
	// Speed multiplies the base playback rate, MinSpeed..MaxSpeed.
	Speed float64
	// Autoplay starts the animation playing rather than paused.
	Autoplay bool
	// Loop starts playback over after the end (loop=0 stops there).
	Loop bool
	// Start is the instant to show first.
	Start units.Time
	// Embed shows only the canvas and a minimal overlay (embed=1).
	Embed bool
	// Hide names the parts of the page to hide (hide=controls,metrics).
	// Names the page does not know are kept and ignored.
	Hide []string
	// Present is presenter mode (present=1): larger text, thicker lines,
	// a caption line, the dark theme unless theme says otherwise, and
	// steps (PageDown, →) that stop only where an op or a collective step
	// begins.
	Present bool
	// Theme is the canvas's colour scheme: "light", "dark", or "" to
	// follow the page (its theme toggle, else prefers-color-scheme).
	Theme string
	// Plan opens the plan tab (plan=1): the page starts the plan search
	// for the scenario as soon as the app runs and shows its scatter, as
	// an article's embedded planner does.
	Plan bool
}

// ParseView decodes speed, autoplay, loop, t, embed, hide, present, theme
// and plan. Errors are
// *scenario.FieldError naming the parameter, like the scenario's own.
func ParseView(q url.Values) (View, error) {
	v := View{Speed: 1, Autoplay: true, Loop: true}
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, scenario.Fieldf(field, format, args))
	}
	if s, ok := single(q, "speed", bad); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(f) || f < MinSpeed || f > MaxSpeed {
			bad("speed", "%q is not allowed; want a multiplier %v..%v (e.g. 2)", s, MinSpeed, MaxSpeed)
		} else {
			v.Speed = f
		}
	}
	if s, ok := single(q, "autoplay", bad); ok {
		if v.Autoplay, ok = parseBool(s); !ok {
			bad("autoplay", "%q is not allowed; want 1 or 0", s)
		}
	}
	if s, ok := single(q, "loop", bad); ok {
		if v.Loop, ok = parseBool(s); !ok {
			bad("loop", "%q is not allowed; want 1 or 0", s)
		}
	}
	if s, ok := single(q, "embed", bad); ok {
		if v.Embed, ok = parseBool(s); !ok {
			bad("embed", "%q is not allowed; want 1 or 0", s)
		}
	}
	if s, ok := single(q, "present", bad); ok {
		if v.Present, ok = parseBool(s); !ok {
			bad("present", "%q is not allowed; want 1 or 0", s)
		}
	}
	if s, ok := single(q, "plan", bad); ok {
		if v.Plan, ok = parseBool(s); !ok {
			bad("plan", "%q is not allowed; want 1 or 0", s)
		}
	}
	if s, ok := single(q, "theme", bad); ok {
		switch t := strings.ToLower(strings.TrimSpace(s)); t {
		case "light", "dark":
			v.Theme = t
		case "", "auto":
		default:
			bad("theme", "%q is not allowed; want light, dark or auto", s)
		}
	}
	if s, ok := single(q, "hide", bad); ok {
		for _, h := range strings.Split(s, ",") {
			if h = strings.TrimSpace(h); h != "" {
				v.Hide = append(v.Hide, h)
			}
		}
	}
	if s, ok := single(q, "t", bad); ok {
		t, err := units.ParseTime(s)
		if err != nil {
			bad("t", "%v", err)
		} else {
			v.Start = t
		}
	}
	return v, errors.Join(errs...)
}

func parseBool(s string) (v, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on", "":
		return true, true
	case "0", "false", "no", "off":
		return false, true
	}
	return false, false
}

// single returns the one value of parameter p, reporting a repeated one.
func single(q url.Values, p string, bad func(string, string, ...any)) (string, bool) {
	vs, ok := q[p]
	if !ok {
		return "", false
	}
	if len(vs) != 1 {
		bad(p, "given more than once")
		return "", false
	}
	return vs[0], true
}

// ErrorLines flattens an error (including errors.Join trees) into one line
// per problem, so each FieldError is shown on its own line.
func ErrorLines(err error) []string {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var lines []string
		for _, e := range j.Unwrap() {
			lines = append(lines, ErrorLines(e)...)
		}
		return lines
	}
	return strings.Split(err.Error(), "\n")
}

// Canonical is the query that says the same as q, in the one spelling the
// page keeps in its address bar: the scenario's fields that differ from the
// default (scenario.Query) and the viewer's parameters that q sets
// (url.Values.Encode sorts them). A scenario that did not decode keeps
// q's own scenario parameters, so a bad value stays visible to be fixed.
func Canonical(q url.Values, s scenario.Scenario, ok bool) url.Values {
	out := url.Values{}
	if ok {
		out = s.Query()
	} else {
		for k, vs := range q {
			if !isView(k) {
				out[k] = append([]string(nil), vs...)
			}
		}
	}
	for _, p := range scenario.ViewParams {
		if vs, has := q[p]; has {
			out[p] = append([]string(nil), vs...)
		}
	}
	return out
}

func isView(p string) bool {
	for _, v := range scenario.ViewParams {
		if v == p {
			return true
		}
	}
	return false
}
