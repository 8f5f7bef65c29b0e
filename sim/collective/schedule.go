package collective

import (
	"errors"
	"fmt"

	"paraplay/sim/units"
)

// Phase names of the ring all-reduce.
const (
	PhaseReduceScatter = "reduce-scatter"
	PhaseAllGather     = "all-gather"
)

// Transfer is one message of a schedule.
type Transfer struct {
	// Step is the round the message belongs to, from 0.
	Step int
	// Src and Dst are ranks, 0..Ranks-1.
	Src, Dst int
	// Chunk is the index of the buffer chunk the message carries.
	Chunk int
	// Bytes is the size of the message.
	Bytes units.Bytes
	// Phase names the part of the algorithm.
	Phase string
	// After lists the indices (into Schedule.Transfers) of the transfers
	// that must have arrived before this one can be sent: the data it
	// forwards or reduces.
	After []int
}

// Schedule is a collective operation written out as data.
type Schedule struct {
	// Op is the operation, e.g. "all-reduce".
	Op string
	// Algorithm is how it is done, e.g. "ring".
	Algorithm string
	// Ranks is the number of participants.
	Ranks int
	// Bytes is S, the buffer each rank contributes.
	Bytes units.Bytes
	// Steps is the number of rounds.
	Steps int
	// Transfers lists every message in step order.
	Transfers []Transfer
}

// ChunkBytes splits S bytes into n chunks as evenly as whole bytes allow:
// the first S mod n chunks get one byte more.
func ChunkBytes(s units.Bytes, n, chunk int) units.Bytes {
	size := s / units.Bytes(n)
	if units.Bytes(chunk) < s%units.Bytes(n) {
		size++
	}
	return size
}

// Validate checks that ranks, steps and dependencies are consistent: every
// dependency points to an earlier step, and every transfer moves bytes
// between two different ranks.
func (s *Schedule) Validate() error {
	var errs []error
	for i, t := range s.Transfers {
		if t.Src < 0 || t.Src >= s.Ranks || t.Dst < 0 || t.Dst >= s.Ranks || t.Src == t.Dst {
			errs = append(errs, fmt.Errorf("transfer %d: %d→%d is not between two of %d ranks", i, t.Src, t.Dst, s.Ranks))
		}
		if t.Step < 0 || t.Step >= s.Steps {
			errs = append(errs, fmt.Errorf("transfer %d: step %d outside 0..%d", i, t.Step, s.Steps-1))
		}
		if t.Bytes <= 0 {
			errs = append(errs, fmt.Errorf("transfer %d: %d bytes", i, t.Bytes))
		}
		for _, d := range t.After {
			if d < 0 || d >= len(s.Transfers) || s.Transfers[d].Step >= t.Step {
				errs = append(errs, fmt.Errorf("transfer %d: waits for transfer %d, which is not an earlier step", i, d))
			}
		}
	}
	return errors.Join(errs...)
}
