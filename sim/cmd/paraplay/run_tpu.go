//go:build !js

package main

import (
	"fmt"
	"io"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/training"
)

// writeTorusBook prints, for a training run on a TPU slice, the lines that
// set it beside the scaling book's rules (Austin et al. 2025, 'How to
// Scale Your Model'): the tokens per data shard at which the
// data-parallel torus all-reduce would take as long as the backward pass,
// against e·C / W_ici (Part 5); the bytes chip 0 receives along each
// torus axis and the DCN in the run's torus collectives
// (training.TorusTraffic); and, with training.tokens, the days to train
// against 6·N·T / (chips·e·C) (Part 6). Nothing for other runs.
func writeTorusBook(w io.Writer, s scenario.Scenario, tl *timeline.Timeline) error {
	if _, ok := s.Slice(); !ok || s.Strategy != training.Name {
		return nil
	}
	sum := tl.Summarize()
	if b, ok := training.TorusDPBound(s, tl, sum); ok {
		if _, err := fmt.Fprintf(w, "  torus data parallel   all-reduce over %s %v a step, backward %v: compute-bound above %.0f tokens per chip (the book's e·C/W_ici: %.0f, %+.1f%%)\n",
			b.Axes, b.Comm, b.Backward, b.Critical, b.Book, 100*(b.Critical/b.Book-1)); err != nil {
			return err
		}
	}
	if ici, dcn, ok := training.TorusTraffic(s, tl); ok {
		if _, err := fmt.Fprintf(w, "  torus traffic         chip 0 receives x %.3f, y %.3f, z %.3f GiB over ICI and %.3f GiB over the DCN a step in its torus collectives\n",
			ici[0]/(1<<30), ici[1]/(1<<30), ici[2]/(1<<30), dcn/(1<<30)); err != nil {
			return err
		}
	}
	if days, book, ok := training.TrainingDays(s, sum); ok {
		_, err := fmt.Fprintf(w, "  the book's estimate   6·N·T/(chips·e·C) = %.1f days; simulated %.1f (%+.1f%%)\n", book, days, 100*(days/book-1))
		return err
	}
	return nil
}
