//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// Speed multipliers the viewer accepts; + and − move by factors of two.
const (
	minSpeed = 0.25
	maxSpeed = 16
)

// view holds the viewer's own URL parameters (scenario.ViewParams).
type view struct {
	// Speed multiplies the base playback rate, minSpeed..maxSpeed.
	Speed float64
	// Autoplay starts the animation playing rather than paused.
	Autoplay bool
	// Start is the instant to show first.
	Start units.Time
}

// parseView decodes speed, autoplay and t. Errors are *scenario.FieldError
// naming the parameter, like the scenario's own, so they read the same.
func parseView(q url.Values) (view, error) {
	v := view{Speed: 1, Autoplay: true}
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &scenario.FieldError{Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	if s, ok := single(q, "speed", bad); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(f) || f < minSpeed || f > maxSpeed {
			bad("speed", "%q is not allowed; want a multiplier %v..%v (e.g. 2)", s, minSpeed, maxSpeed)
		} else {
			v.Speed = f
		}
	}
	if s, ok := single(q, "autoplay", bad); ok {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "1", "true", "yes", "on", "":
			v.Autoplay = true
		case "0", "false", "no", "off":
			v.Autoplay = false
		default:
			bad("autoplay", "%q is not allowed; want 1 or 0", s)
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

// errorLines flattens an error (including errors.Join trees) into one line
// per problem, so each FieldError is shown on its own line.
func errorLines(err error) []string {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var lines []string
		for _, e := range j.Unwrap() {
			lines = append(lines, errorLines(e)...)
		}
		return lines
	}
	return strings.Split(err.Error(), "\n")
}
