// Package timeline is the record of a finished run: the GPUs and links that
// took part, the compute spans each GPU executed and the transfers each link
// carried. It is the single hand-off between the simulator and everything
// that shows a run (summaries, Chrome traces, the scene).
//
// A timeline is a core every run shares and records each strategy adds:
//
//   - ranges: spans (a GPU's compute stream), transfers (a message on a path
//     of links, with its piecewise-constant rate), collectives (the interval
//     of one operation on its ranks) and states (a GPU or link in a fault or
//     recovery state);
//   - series, piecewise-constant values over time: each GPU's memory
//     (activations and KV cache beside the static model states), and a
//     record's own, such as the rollout queue's depth of an RLHF run;
//   - records: a strategy's own part, a Record that checks its invariants
//     against the core and writes its part of the summary. The built-in
//     ones sit in typed fields (Training with its iterations and recovery
//     steps, Async, Split, RLHF, Inference); a strategy outside them puts
//     its record in Extra under a name.
//
// Validate checks the core and then every record, for every run; the
// simulators call it before they return a timeline, and one fuzz target
// (FuzzValidate) feeds it arbitrary timelines. Summarize computes the core
// figures and collects each record's Report; Summary.WriteText prints them
// (on the command line: the browser build leaves the text and the timeline
// JSON out, text_js.go).
package timeline
