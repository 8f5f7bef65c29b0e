//go:build !js

package training

import (
	"fmt"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

// compressionMetrics is a compressed pipeline's part of the caption: one
// pipeline message on the wire beside its closed form, 2·b·(s/c)·h/t
// bytes of bf16 activations per tensor-parallel rank times the fraction
// that travels, a (compression.activations) or k/h (compression.rank,
// Protocol Models' subspace coordinates).
func compressionMetrics(s scenario.Scenario, tl *timeline.Timeline) []strategy.Part {
	c, p := s.Compression, s.Parallel
	if p.PP < 2 || s.Model.IsSynthetic() || (c.Rank == 0 && c.Activations == 1) {
		return nil
	}
	m, err := s.Model.Resolve()
	if err != nil {
		return nil
	}
	sim := -1.0
	for i := range tl.Transfers.Len() {
		if x := tl.Transfers.At(i); x.Phase == "pp" {
			sim = float64(x.Bytes)
			break
		}
	}
	for _, x := range tl.Collectives {
		if sim < 0 && x.Purpose == "pp" {
			sim = float64(x.Bytes)
		}
	}
	if sim < 0 {
		return nil // an ideal network sends nothing
	}
	full := 2 * float64(p.MicroBatchSize) * float64(m.SeqLen) / float64(p.CP) * float64(m.Hidden) / float64(p.TP)
	text, formula, want := "activations at %g: simulated {}; a·2bsh/t = {}", "a·2·b·s·h/t", full*c.Activations
	text = fmt.Sprintf(text, c.Activations)
	if c.Rank > 0 {
		text = fmt.Sprintf("subspace of rank %d: simulated {}; 2bsk/t = {}", c.Rank)
		formula, want = "2·b·s·k/t", full*float64(c.Rank)/float64(m.Hidden)
	}
	return []strategy.Part{strategy.Compare(strategy.Check{Name: "pipeline message", Formula: formula,
		Source: "Narayanan et al. 2021 (b·s·h per boundary); Ramasinghe et al. 2025 (k coordinates per token)", Tolerance: 1e-6},
		"pipeline message, "+text, sim, want, strategy.Size)}
}
