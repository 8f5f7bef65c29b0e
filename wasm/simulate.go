//go:build js && wasm

package main

import (
	"fmt"
	"runtime/debug"
	"syscall/js"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// The logical canvas; Ebitengine scales it to the page (the iframe).
const (
	logicalWidth  = 960
	logicalHeight = 600
)

// simulate runs the scenario, turning a panic in the simulator into an
// error so the page shows it instead of dying with a blank canvas.
func simulate(s scenario.Scenario) (tl *timeline.Timeline, err error) {
	defer func() {
		if r := recover(); r != nil {
			logPanic(r)
			tl, err = nil, fmt.Errorf("the simulator crashed: %v", r)
		}
	}()
	tl, err = run.Simulate(s)
	if err == nil && tl == nil {
		err = fmt.Errorf("the simulator returned no timeline")
	}
	return tl, err
}

// buildScene asks the scene for instant t, turning a panic into an error.
func buildScene(tl *timeline.Timeline, t units.Time) (dl scene.DrawList, err error) {
	defer func() {
		if r := recover(); r != nil {
			logPanic(r)
			err = fmt.Errorf("drawing the scene crashed at t=%v: %v", t, r)
		}
	}()
	// The scene gets the canvas minus the status line, so the line never
	// covers the scene's axis labels.
	return scene.Build(tl, t, scene.Options{Width: logicalWidth, Height: logicalHeight - statusHeight}), nil
}

// logPanic leaves the stack in the browser console for whoever debugs it;
// console.warn, not error, since the page handles it and shows the message.
func logPanic(r any) {
	js.Global().Get("console").Call("warn", fmt.Sprintf("paraplay: recovered panic: %v\n%s", r, debug.Stack()))
}
