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
// torus axis and the DCN, by mesh axis (writeMeshTraffic); and, with
// training.tokens, the days to train
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
	if err := writeMeshTraffic(w, s, tl); err != nil {
		return err
	}
	if days, book, ok := training.TrainingDays(s, sum); ok {
		_, err := fmt.Fprintf(w, "  the book's estimate   6·N·T/(chips·e·C) = %.1f days; simulated %.1f (%+.1f%%)\n", book, days, 100*(days/book-1))
		return err
	}
	return nil
}

// writeMeshTraffic prints the bytes chip 0 receives a step along each
// torus axis and over the DCN (training.TorusMeshTraffic), a row for each
// kind of parallelism that sends any: data (the data-parallel and
// ZeRO/FSDP collectives), model (tensor-parallel all-reduces) and seq
// (ring attention's keys and values).
func writeMeshTraffic(w io.Writer, s scenario.Scenario, tl *timeline.Timeline) error {
	mt, ok := training.TorusMeshTraffic(s, tl)
	if !ok {
		return nil
	}
	if _, err := fmt.Fprintf(w, "  torus traffic         chip 0 receives a step (GiB)   x ICI    y ICI    z ICI      DCN\n"); err != nil {
		return err
	}
	for _, r := range []struct {
		name string
		t    training.AxisTraffic
	}{{"data (dp, ZeRO/FSDP)", mt.Data}, {"model (tp)", mt.Model}, {"seq (cp)", mt.Seq}} {
		if r.t == (training.AxisTraffic{}) {
			continue
		}
		const g = 1 << 30
		if _, err := fmt.Fprintf(w, "    %-47s %8.3f %8.3f %8.3f %8.3f\n", r.name, r.t.ICI[0]/g, r.t.ICI[1]/g, r.t.ICI[2]/g, r.t.DCN/g); err != nil {
			return err
		}
	}
	return nil
}
