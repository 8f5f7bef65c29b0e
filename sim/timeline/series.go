package timeline

import (
	"fmt"
	"strconv"

	"paraplay/sim/units"
)

// checkInstant checks a point of a piecewise-constant series: its instant
// at lies within the run, [0, end], and not before prev, the instant of the
// point before it.
func checkInstant(at, prev, end units.Time) error {
	if at < 0 || at > end {
		return fmt.Errorf("at %v, outside [0, %v]", at, end)
	}
	if at < prev {
		return fmt.Errorf("at %v, before the point before it (%v)", at, prev)
	}
	return nil
}

// checkMemory checks every GPU's memory: the entry for GPU i is Memory[i],
// sizes are not negative, both series lie inside the run in time order, and
// Peak is at least the static memory and every total the series reach.
// (Peak may exceed them: the training simulator counts what a GPU holds
// between two changes at one instant, which the series keep only the last
// of.)
func (tl *Timeline) checkMemory() []error {
	var errs []error
	if len(tl.Memory) > len(tl.GPUs) {
		errs = append(errs, fmt.Errorf("memory: %d entries for %d GPUs", len(tl.Memory), len(tl.GPUs)))
	}
	for i := range tl.Memory {
		m := &tl.Memory[i]
		bad := func(format string, args ...any) {
			errs = append(errs, errorf("memory["+strconv.Itoa(i)+"]: "+format, args))
		}
		if m.GPU != i {
			bad("GPU %d, want %d", m.GPU, i)
		}
		if m.Capacity < 0 || m.Parameters < 0 || m.Gradients < 0 || m.OptimizerStates < 0 || m.Buffers < 0 || !(m.PeakInFlight >= 0) {
			bad("negative size: capacity %v, states %v + %v + %v, buffers %v, %g in flight",
				m.Capacity, m.Parameters, m.Gradients, m.OptimizerStates, m.Buffers, m.PeakInFlight)
		}
		if r := m.Reserve; r.Context < 0 || r.Workspaces < 0 || r.Communicators < 0 || r.Allocator < 0 {
			bad("negative reserve: %+v", r)
		}
		if err := checkSeries(m.Activations, tl.End); err != nil {
			bad("activations%v", err)
		}
		if err := checkSeries(m.KVCache, tl.End); err != nil {
			bad("kv_cache%v", err)
		}
		if most := m.highest(); m.Peak < most {
			bad("peak %v, below the %v it holds", m.Peak, most)
		}
	}
	return errs
}

// checkSeries checks a memory series: points in time order inside the run,
// none negative. It returns the first fault, naming its point.
func checkSeries(pts []MemoryPoint, end units.Time) error {
	var prev units.Time
	for i, p := range pts {
		if err := checkInstant(p.At, prev, end); err != nil {
			return fmt.Errorf("[%d]: %v", i, err)
		}
		if p.Bytes < 0 || !(p.InFlight >= 0) {
			return fmt.Errorf("[%d]: %v, %g in flight", i, p.Bytes, p.InFlight)
		}
		prev = p.At
	}
	return nil
}

// highest is the largest total m reaches: Static plus the activations and
// the KV cache at the instant either changes, walking both series at once
// (each point holds from its At on, the last of one instant wins).
func (m *Memory) highest() units.Bytes {
	static := m.Static()
	most := static
	a, kv := m.Activations, m.KVCache
	var curA, curKV units.Bytes
	for len(a) > 0 || len(kv) > 0 {
		t := nextInstant(a, kv)
		for len(a) > 0 && a[0].At == t {
			curA, a = a[0].Bytes, a[1:]
		}
		for len(kv) > 0 && kv[0].At == t {
			curKV, kv = kv[0].Bytes, kv[1:]
		}
		if len(a) > 0 && a[0].At < t || len(kv) > 0 && kv[0].At < t {
			return most // out of order: checkSeries reports it
		}
		most = max(most, static+curA+curKV)
	}
	return most
}

// nextInstant is the earlier of the two series' first instants.
func nextInstant(a, b []MemoryPoint) units.Time {
	switch {
	case len(a) == 0:
		return b[0].At
	case len(b) == 0:
		return a[0].At
	}
	return min(a[0].At, b[0].At)
}
