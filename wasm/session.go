//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"net/url"
	"runtime/debug"
	"sync"
	"syscall/js"

	"paraplay/sim/budget"
	"paraplay/sim/fault"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/wasm/playground"
)

// session is one decoded address and its run. It is immutable once made,
// so the JS bridge may read it while the game goroutine draws it.
type session struct {
	// query returns the canonical form of the address
	// (playground.Canonical), made when first asked for, as pageJSON is.
	query func() url.Values
	s     scenario.Scenario
	view  playground.View
	// tl is nil when the address or the run failed; errTitle and
	// errLines then say why.
	tl *timeline.Timeline
	// long is the report of a long run (playground.IsLongRun), drawn by
	// scene.LongRun instead of a timeline.
	long     *fault.Report
	errTitle string
	errLines []string
	// imported describes a measured run read from profiler traces
	// (traceimport.go); empty for a simulated one.
	imported string
	// pageJSON is the form's controls and the metrics panel as JSON, made
	// when the page first asks rather than in newSession: in a fresh page
	// this marshalling is the costliest part of a session (V8 compiles the
	// reflection code on its first call), and the first frame needs none of
	// it.
	pageJSON func() (controls, metrics []byte)
}

// newSession decodes q (qerr is a malformed query string) and runs it.
// Every failure becomes an error session, which the canvas draws.
func newSession(q url.Values, qerr error) *session {
	if qerr != nil {
		q = url.Values{}
	}
	s, serr := scenario.FromQuery(q)
	v, verr := playground.ParseView(q)
	if _, set := q["autoplay"]; !set && reducedMotion() {
		v.Autoplay = false // the reader asked the system for less motion
	}
	ss := &session{s: s, view: v}
	ss.pageJSON = sync.OnceValues(func() (controls, metrics []byte) {
		controls, _ = playground.ControlsJSON(playground.Controls(s))
		switch {
		case ss.long != nil:
			metrics, _ = playground.MetricsJSON(playground.LongMetrics(*ss.long, s.Title()))
		case ss.tl != nil:
			metrics, _ = playground.MetricsJSON(playground.MetricsOf(ss.tl))
		}
		return controls, metrics
	})
	err := errors.Join(serr, verr)
	var tooLarge error // the browser's budget, checked before anything runs
	if qerr == nil && err == nil {
		tooLarge = playground.CheckBudget(s)
	}
	switch {
	case qerr != nil:
		ss.fail("This demo's address is malformed", &scenario.FieldError{Field: "URL", Msg: qerr.Error()})
	case playground.IsCompare(q):
		// play.js runs the app only for one run; a= or b= here is a side
		// of compare mode that is itself a compare query.
		ss.fail("Compare mode does not nest", playground.NestedCompare(q))
	case err != nil:
		ss.fail("This demo's parameters are not valid", err)
	case tooLarge != nil:
		ss.fail(playground.TooLarge, tooLarge)
	case playground.IsLongRun(s):
		rep, err := simulateLong(s)
		if err != nil {
			ss.fail("The long run failed", err)
			break
		}
		ss.long = &rep
	default:
		tl, err := simulate(s)
		if err != nil {
			ss.fail("The simulation failed", err)
			break
		}
		ss.tl = tl
	}
	ss.query = sync.OnceValue(func() url.Values { return playground.Canonical(q, s, ss.ok()) })
	return ss
}

// ok reports whether the session has a run to show.
func (ss *session) ok() bool { return ss.tl != nil || ss.long != nil }

func (ss *session) fail(title string, err error) {
	ss.errTitle, ss.errLines = title, playground.ErrorLines(err)
}

// reducedMotion reports the prefers-reduced-motion media query.
func reducedMotion() bool {
	mm := js.Global().Get("matchMedia")
	if mm.Type() != js.TypeFunction {
		return false
	}
	return js.Global().Call("matchMedia", "(prefers-reduced-motion: reduce)").Get("matches").Bool()
}

// simulate runs the scenario, turning a panic in the simulator into an
// error so the page shows it instead of dying with a blank canvas.
func simulate(s scenario.Scenario) (tl *timeline.Timeline, err error) {
	defer func() {
		if r := recover(); r != nil {
			logPanic(r)
			tl, err = nil, fmt.Errorf("the simulator crashed: %v", r)
		}
	}()
	tl, err = run.SimulateWithin(s, budget.Browser)
	if err == nil && tl == nil {
		err = fmt.Errorf("the simulator returned no timeline")
	}
	return tl, err
}

// simulateLong is simulate for a long run.
func simulateLong(s scenario.Scenario) (rep fault.Report, err error) {
	defer func() {
		if r := recover(); r != nil {
			logPanic(r)
			err = fmt.Errorf("the simulator crashed: %v", r)
		}
	}()
	return playground.LongRun(s)
}

// buildLong draws a long run at instant t into dl.
func buildLong(dl *scene.DrawList, ss *session, t units.Time, opt scene.Options) (err error) {
	defer func() {
		if r := recover(); r != nil {
			logPanic(r)
			err = fmt.Errorf("drawing the long run crashed at t=%v: %v", t, r)
		}
	}()
	*dl = scene.LongRun(*ss.long, ss.s.Title(), t, opt)
	return nil
}

// buildScene asks the scene for instant t, writing into dl (whose storage
// it reuses), turning a panic into an error.
func buildScene(dl *scene.DrawList, tl *timeline.Timeline, t units.Time, opt scene.Options) (err error) {
	defer func() {
		if r := recover(); r != nil {
			logPanic(r)
			err = fmt.Errorf("drawing the scene crashed at t=%v: %v", t, r)
		}
	}()
	framesOf(tl).BuildInto(dl, t, opt)
	return nil
}

// framesOf returns the prepared frames of tl, made on first use.
func framesOf(tl *timeline.Timeline) *scene.Frames {
	f, ok := frames[tl]
	if !ok {
		if len(frames) >= 4 { // compare mode shows two runs; older ones are gone
			clear(frames)
		}
		f = scene.NewFrames(tl)
		frames[tl] = f
	}
	return f
}

// frames keeps, for each timeline on screen, the part of the scene that
// does not change with t, so a frame only redraws what moves.
var frames = map[*timeline.Timeline]*scene.Frames{}

// logPanic leaves the stack in the browser console for whoever debugs it;
// console.warn, not error, since the page handles it and shows the message.
func logPanic(r any) {
	js.Global().Get("console").Call("warn", fmt.Sprintf("paraplay: recovered panic: %v\n%s", r, debug.Stack()))
}
