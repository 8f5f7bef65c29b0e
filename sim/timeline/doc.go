// Package timeline is the record of a finished run: the GPUs and links that
// took part, the compute spans each GPU executed and the transfers each link
// carried. It is the single hand-off between the simulator and everything
// that shows a run (summaries, Chrome traces, the scene). Validate checks the
// invariants every run must keep.
package timeline
