package taskgraph

import (
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Activations is one GPU's activation memory over a run, as group ops
// took and gave it back (TrackMemory).
type Activations struct {
	// Points is the level after each change, one point per instant.
	Points []timeline.MemoryPoint
	// Peak is the highest level in bytes, PeakInFlight its in-flight
	// stage-equivalents (the most of them at that level).
	Peak, PeakInFlight float64
}

// memTrack is one GPU's activation memory as the run goes.
type memTrack struct {
	bytes, inflight float64
	Activations
}

// TrackMemory has the run follow every GPU's activation memory (the Take
// and Give of group ops).
func (g *Graph) TrackMemory() { g.gpus.mem = make([]memTrack, len(g.gpus.computeAt)) }

// ActivationsOf is GPU gpu's activation memory over the run (TrackMemory).
func (g *Graph) ActivationsOf(gpu int) Activations { return g.gpus.mem[gpu].Activations }

func (m *memTrack) change(at units.Time, bytes, inflight float64) {
	if bytes == 0 && inflight == 0 {
		return
	}
	m.bytes += bytes
	m.inflight += inflight
	if m.bytes < 0 { // float dust from releasing what was taken
		m.bytes = 0
	}
	p := timeline.MemoryPoint{At: at, Bytes: units.Bytes(m.bytes + 0.5), InFlight: m.inflight}
	if n := len(m.Points); n > 0 && m.Points[n-1].At == at {
		m.Points[n-1] = p
	} else {
		m.Points = append(m.Points, p)
	}
	if m.bytes > m.Peak || (m.bytes == m.Peak && m.inflight > m.PeakInFlight) {
		m.Peak, m.PeakInFlight = m.bytes, m.inflight
	}
}
