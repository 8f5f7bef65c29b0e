//go:build js && wasm

// Command wasm is the ParaPlay browser app: a thin Ebitengine adapter that
// runs one simulation and animates it on a 960×600 logical canvas.
//
// At start it reads window.location.search, decodes the scenario with
// scenario.FromQuery and runs run.Simulate once. Each tick, Update advances
// the simulated instant t; Draw replays scene.Build(t)'s draw list — every
// rectangle and line in one DrawTriangles call, then the text on top.
//
// # View parameters
//
// Besides the scenario parameters, the URL may hold three parameters that
// belong to the viewer:
//
//   - speed: a multiplier of the base playback rate, 0.25..16 (default 1).
//     The base rate is 1.5 ms of simulated time per real second, so ×1 plays
//     a 12 ms iteration in 8 s (the default run, about 10 ms, in under 7 s)
//     and two demos at the same speed are directly comparable. A run that would last under 4 s or over 30 s at
//     that rate is instead given a base rate that plays it in 8 s; the
//     status line always shows the multiplier.
//   - autoplay: "0" or "false" starts paused (default: playing).
//   - t: the instant to start at, e.g. "3ms" (default 0).
//
// # Keyboard
//
// Space play/pause; → and PageDown step to the next event (the start or end
// of a span or transfer) and pause; ← and PageUp step back; + and − double or
// halve the speed; Home restarts; F toggles fullscreen. At the end of the run
// playback holds for one second and loops.
//
// # JavaScript bridge
//
// window.paraplay = {frames, simTime, end, speed, state, error} is updated
// every frame: frames counts Draw calls, simTime and end are nanoseconds,
// state is "playing", "paused" or "error". Browser tests and the host page
// read it; nothing flows back into the simulation.
//
// Bad parameters never give a blank canvas: every problem is drawn over the
// canvas on its own line, and a panic in the simulator is shown the same way.
package main
