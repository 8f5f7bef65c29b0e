//go:build !js

package sppo

import (
	"errors"
	"fmt"
	"io"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Record is an SPPO run's record on the timeline (Extra["sppo"]): the
// measured memory beside the package doc's closed forms, and the chunks
// whose offload the closed form says cannot hide.
type Record struct {
	// Peak is the highest GPU memory measured (states and activations);
	// PeakClosed the closed form, max over stages of
	// states + Σ_c A_c − f·Σ_{c ≤ n−3} A_c; PeakResident the same with
	// nothing offloaded, states + Σ_c A_c.
	Peak, PeakClosed, PeakResident units.Bytes
	// Host is the most host memory a GPU's offloads filled; HostClosed
	// f·Σ_{c ≤ n−2} A_c, max over stages; HostCapacity sppo.host_memory.
	Host, HostClosed, HostCapacity units.Bytes
	// HBM is the GPU's memory.
	HBM units.Bytes
	// Late counts the (stage, chunk) pairs whose offload D_c outlasts the
	// next chunk's forward F_{c+1}: the closed form's exposed transfers.
	Late int
	// Exposed is Σ max(0, D_c − F_{c+1}) on the stage where it is
	// largest: the forward time the closed form says offloading adds.
	Exposed units.Time
	// Offloads counts the offload transfers.
	Offloads int
}

// extra puts the run's record on tl.
func (r *run) extra(tl *timeline.Timeline) {
	p := r.p
	rec := &Record{HostCapacity: p.host, HBM: p.gpu.HBM}
	for _, m := range tl.Memory {
		rec.Peak = max(rec.Peak, m.Peak)
	}
	rec.Host = r.hostPeak
	for st := range p.stages {
		var all, gone, held units.Bytes
		var exposed units.Time
		for c := range p.chunks {
			all += p.act(st, c)
			if c <= p.chunks-3 {
				gone += p.off(st, c)
			}
			held += p.off(st, c)
			if p.off(st, c) > 0 && c+1 < p.chunks {
				rec.Offloads++
				if d := r.transferTime(p.off(st, c)); d > p.time(st, c+1, 1) {
					rec.Late++
					exposed += d - p.time(st, c+1, 1)
				}
			}
		}
		rec.PeakClosed = max(rec.PeakClosed, p.states[st]+all-gone)
		rec.PeakResident = max(rec.PeakResident, p.states[st]+all)
		rec.HostClosed = max(rec.HostClosed, held)
		rec.Exposed = max(rec.Exposed, exposed)
	}
	tl.Extra = map[string]timeline.Record{Name: rec}
}

// transferTime is D = bytes / β + α on the PCIe link (the host's side).
func (r *run) transferTime(b units.Bytes) units.Time {
	return r.p.pcie.Latency + r.p.pcie.Bandwidth.TransferTime(b)
}

// Check holds the record to the run: a memory series per GPU, none per
// host.
func (r *Record) Check(tl *timeline.Timeline) []error {
	if r.Peak < 0 || r.Host < 0 || 2*len(tl.Memory) != len(tl.GPUs) {
		return []error{errors.New("sppo: the record's memory does not match the run's")}
	}
	return nil
}

// Report is the record's part of the summary.
func (r *Record) Report(*timeline.Timeline, *timeline.Summary) timeline.Report { return r }

// WriteText prints the offload's lines of the summary.
func (r *Record) WriteText(w io.Writer) {
	fmt.Fprintf(w, "  sppo GPU peak         %v of %v (closed form %v; %v with nothing offloaded)\n", r.Peak, r.HBM, r.PeakClosed, r.PeakResident)
	fmt.Fprintf(w, "  sppo host memory      %v of %v per GPU (closed form %v)\n", r.Host, r.HostCapacity, r.HostClosed)
	fmt.Fprintf(w, "  sppo offloads         %d, %d longer than the next chunk's forward (adding up to %v)\n", r.Offloads, r.Late, r.Exposed)
}
