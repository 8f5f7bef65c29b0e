//go:build js && wasm

// Command wasm is the ParaPlay browser app: a thin Ebitengine adapter that
// runs a simulation and animates it on a canvas 600 logical pixels high and
// as wide as the page's stage (600..1600).
//
// At start it reads window.location.search and makes a session: it decodes
// the scenario with scenario.FromQuery and the viewer's parameters with
// playground.ParseView, and runs run.Simulate once. Each tick Update applies
// what the page asked for through the bridge, advances the playground.Clock,
// and rebuilds scene.Build(t)'s draw list when t changed; Draw replays it —
// every rectangle and line in one DrawTriangles call, then the text on top.
// The pointer inspects (scene.HitTest, scene.Describe) and, pressed on the
// timeline strip, scrubs (scene.StripTimeAt).
//
// # View parameters
//
//   - speed: a multiplier of the base playback rate, 0.1..1000 (default 1);
//     see playground.Clock for the base rate.
//   - autoplay: "0" starts paused (default: playing, or paused when the
//     reader prefers reduced motion).
//   - t: the instant to start at, e.g. "3ms" (default 0).
//   - embed=1: the canvas alone with a small playback bar (play.js).
//   - hide=controls,metrics: hide parts of the playground (play.js).
//
// # JavaScript bridge
//
// window.paraplay holds, updated every frame: frames, fps, simTime and end
// (ns), speed, loop, state ("loading", "playing", "paused", "error"),
// error, hover (the ID under the pointer), hoverText (scene.Describe) and
// minText (the frame's smallest text, in device pixels).
// Its functions: run(query) re-simulates and returns {ok, query (canonical),
// title, describe, error, errorTitle, errorParams, embed, hide, controls,
// metrics}; current() returns the same for the run shown; trace() the
// Chrome trace JSON; presets(); and toggle, play, pause, step(n), seek(ns),
// seekFraction(f), setSpeed(x), faster, slower, restart, toEnd,
// setLoop(bool), which take effect at the next tick. The page (play.js)
// owns the keyboard and the address bar; nothing flows back into a run.
//
// Bad parameters never give a blank canvas: every problem is drawn over the
// canvas on its own line, and a panic in the simulator is shown the same way.
// A compare query (a=, b=) that reaches the app is a side of compare mode
// that is itself a comparison; it is refused the same way
// (playground.NestedCompare), so compare mode is one level deep. An
// embedded demo (embed=1) leaves out labels under 11 CSS px
// (scene.Options.MinText), as its poster does; one in a column under 600
// CSS px (a phone's) is laid out compact (scene.Options.Compact), as the
// compact poster the page shows there.
//
// What the app cannot catch is a fatal error of the Go runtime, such as
// running out of memory: the app ends. play.js keeps the query of the run
// in progress in sessionStorage, files it with the runtime's first line of
// stderr when the app ends, and shows which run stopped the demo and why,
// with a link to the defaults; a reload of that address offers the same
// instead of running it, and crashing, again.
package main
