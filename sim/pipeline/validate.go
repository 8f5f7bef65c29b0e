package pipeline

import (
	"errors"
	"fmt"
)

// Validate checks that s is a runnable schedule: p, m and v are positive;
// Layout maps the p·v model stages one-to-one onto (device, chunk) pairs;
// every (kind, microbatch, model stage) op appears exactly once (F and B
// always, W exactly when SplitBackward); and Order respects the
// dependencies, so that executing it cannot deadlock.
func (s Schedule) Validate() error {
	if err := s.checkShape(); err != nil {
		return err
	}
	if err := s.checkLayout(); err != nil {
		return err
	}
	if err := s.checkOps(); err != nil {
		return err
	}
	_, err := run(s, Times{F: 1, B: 1, W: 1})
	return err
}

func (s Schedule) checkShape() error {
	switch {
	case s.Stages < 1:
		return fmt.Errorf("pipeline: %s: %d stages; need at least 1", s.Name, s.Stages)
	case s.Microbatches < 1:
		return fmt.Errorf("pipeline: %s: %d microbatches; need at least 1", s.Name, s.Microbatches)
	case s.Chunks < 1:
		return fmt.Errorf("pipeline: %s: %d chunks per device; need at least 1", s.Name, s.Chunks)
	case len(s.Order) != s.Stages:
		return fmt.Errorf("pipeline: %s: Order has %d devices, want %d", s.Name, len(s.Order), s.Stages)
	case s.WeightVersions != nil && len(s.WeightVersions) != s.Stages:
		return fmt.Errorf("pipeline: %s: WeightVersions has %d devices, want %d", s.Name, len(s.WeightVersions), s.Stages)
	}
	return nil
}

func (s Schedule) checkLayout() error {
	if len(s.Layout) != s.ModelStages() {
		return fmt.Errorf("pipeline: %s: Layout has %d model stages, want p·v = %d", s.Name, len(s.Layout), s.ModelStages())
	}
	seen := make(map[Place]int, len(s.Layout))
	for k, pl := range s.Layout {
		if pl.Device < 0 || pl.Device >= s.Stages || pl.Chunk < 0 || pl.Chunk >= s.Chunks {
			return fmt.Errorf("pipeline: %s: Layout[%d] = %+v is outside %d devices × %d chunks", s.Name, k, pl, s.Stages, s.Chunks)
		}
		if j, dup := seen[pl]; dup {
			return fmt.Errorf("pipeline: %s: model stages %d and %d both run on %+v", s.Name, j, k, pl)
		}
		seen[pl] = k
	}
	return nil
}

// checkOps checks that each op is in range and appears exactly once.
func (s Schedule) checkOps() error {
	type id struct {
		kind      Kind
		mb, chunk int
		device    int
	}
	seen := make(map[id]bool)
	for d, ops := range s.Order {
		for i, op := range ops {
			if err := s.checkOp(op); err != nil {
				return fmt.Errorf("pipeline: %s: device %d op %d: %w", s.Name, d, i, err)
			}
			k := id{op.Kind, op.Microbatch, op.Chunk, d}
			if seen[k] {
				return fmt.Errorf("pipeline: %s: device %d runs %s twice", s.Name, d, op.label(s.Chunks))
			}
			seen[k] = true
		}
	}
	kinds := []Kind{F, B}
	if s.SplitBackward {
		kinds = append(kinds, W)
	}
	var missing []error
	for _, pl := range s.Layout {
		for _, k := range kinds {
			for mb := 0; mb < s.Microbatches; mb++ {
				if !seen[id{k, mb, pl.Chunk, pl.Device}] && len(missing) < 3 {
					op := Op{Kind: k, Microbatch: mb, Chunk: pl.Chunk}
					missing = append(missing, fmt.Errorf("pipeline: %s: device %d never runs %s", s.Name, pl.Device, op.label(s.Chunks)))
				}
			}
		}
	}
	return errors.Join(missing...)
}

func (s Schedule) checkOp(op Op) error {
	switch {
	case op.Kind >= numKinds:
		return fmt.Errorf("unknown kind %v", op.Kind)
	case op.Kind == W && !s.SplitBackward:
		return errors.New("a W op in a schedule without SplitBackward (its B is the full backward)")
	case op.Microbatch < 0 || op.Microbatch >= s.Microbatches:
		return fmt.Errorf("microbatch %d outside 0..%d", op.Microbatch, s.Microbatches-1)
	case op.Chunk < 0 || op.Chunk >= s.Chunks:
		return fmt.Errorf("chunk %d outside 0..%d", op.Chunk, s.Chunks-1)
	}
	return nil
}
