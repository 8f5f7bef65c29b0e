//go:build !js

package timeline

import (
	"fmt"
	"io"

	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// The summary as text is for the command line: the browser shows a run's
// figures in its own panel, and leaving the text out of the wasm keeps its
// download small (ARCHITECTURE.md, "What the browser leaves out").

// WriteText prints the summary for people: the run's time with every
// record's report (Summary.reports), the core figures, the collectives and
// the GPUs.
func (s Summary) WriteText(w io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	if s.Fidelity == Measured {
		p("%s (measured)\n", s.Title)
	} else {
		p("%s (%s simulation)\n", s.Title, s.Fidelity)
	}
	// A training iteration's record (a mixture of experts' routing) adds
	// lines to one iteration; the other records' runs are longer.
	reports := s.reports()
	if len(reports) > 0 && (s.TokensPerSecond == 0 || len(s.Iterations) > 0) {
		p("  run time              %v\n", s.Iteration)
	} else {
		p("  iteration time        %v\n", s.Iteration)
		if s.Step > 0 {
			p("  steady step           %v  (replicas staggered: each finishes a step this often)\n", s.Step)
		}
	}
	for _, r := range reports {
		r.WriteText(w)
	}
	s.writeCore(w)
	s.writeCollectives(w)
	s.writeGPUs(w)
	return nil
}

// writeCore prints the time shares, a training run's throughput, bubble
// and exposed communication, and the plan's warnings.
func (s *Summary) writeCore(w io.Writer) {
	pct := func(a, b units.Time) float64 {
		if b == 0 {
			return 0
		}
		return 100 * float64(a) / float64(b)
	}
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("  compute (mean/GPU)    %v  (%.1f%%)\n", s.Compute, pct(s.Compute, s.Iteration))
	p("  communication         %v  (%.1f%%)\n", s.Communication, pct(s.Communication, s.Iteration))
	// Exposed is a mean over GPUs like compute, and the kinds below add up to it.
	p("  exposed communication %v  (%.1f%%, mean wait per GPU)\n", s.ExposedCommunication, pct(s.ExposedCommunication, s.Iteration))
	if s.TokensPerSecond > 0 {
		p("  throughput            %.0f tokens/s\n", s.TokensPerSecond)
		p("  MFU                   %.1f%%   (HFU %.1f%%)\n", 100*s.MFU, 100*s.HFU)
	}
	s.writeCost(w)
	if s.Schedule != "" {
		p("  pipeline bubble       %.1f%%   (%s)\n", 100*s.BubbleFraction, s.Schedule)
	}
	if len(s.ExposedBy) > 0 {
		p("  exposed communication by kind:")
		for _, k := range []string{"tp", "cp", "ep", "pp", "dp", "sdp", "zero", "model"} {
			if v, ok := s.ExposedBy[k]; ok {
				p(" %s %v", k, units.Round(v))
			}
		}
		p("\n")
	}
	for _, w := range s.Warnings {
		p("  warning: %s\n", w)
	}
}

// writeCollectives prints one line per kind of collective: identical ones
// (a training run has one per group) print once with their count.
func (s *Summary) writeCollectives(w io.Writer) {
	type key struct {
		name            collective.Op
		algo, proto     string
		channels, ranks int
		bytes           units.Bytes
		time            units.Time
	}
	count := map[key]int{}
	var order []key
	first := map[key]CollectiveSummary{}
	for _, c := range s.Collectives {
		k := key{c.Name, c.Algorithm, c.Protocol, c.Channels, c.Ranks, c.Bytes, c.Time}
		if count[k] == 0 {
			order = append(order, k)
			first[k] = c
		}
		count[k]++
	}
	for i, k := range order {
		if i == 8 {
			fmt.Fprintf(w, "  … and %d more kinds of collective\n", len(order)-8)
			break
		}
		c := first[k]
		times := ""
		if count[k] > 1 {
			times = fmt.Sprintf(" ×%d", count[k])
		}
		how := ""
		if ncclLike[c.Algorithm] {
			how = fmt.Sprintf(", %s, protocol %s", channels(c.Channels), protocolName(c.Protocol))
		}
		fmt.Fprintf(w, "  %s %s%s, %d ranks%s, %v: %v, algbw %.2f GB/s, busbw %.2f GB/s\n",
			c.Algorithm, c.Name, times, c.Ranks, how, c.Bytes, c.Time, float64(c.AlgBW)/1e9, float64(c.BusBW)/1e9)
	}
}

// ncclLike are the algorithms NCCL (or RCCL) runs on channels with a
// protocol, whose summary lines say both; a parameter server's push-pull
// or a textbook binomial tree has neither.
var ncclLike = map[string]bool{"ring": true, "tree": true, "nvls": true, "collnet": true, "direct": true}

// channels is "1 channel" or "8 channels" (0 read as 1).
func channels(n int) string {
	if n <= 1 {
		return "1 channel"
	}
	return fmt.Sprintf("%d channels", n)
}

// protocolName is the protocol, or "none" for the catalog's links as
// they are (no NCCL protocol costs).
func protocolName(p string) string {
	if p == "" {
		return "none"
	}
	return p
}

// writeGPUs prints the memory reserve and the GPU table (the first 16 of
// a larger run), with peak memory when the run tracks it.
func (s *Summary) writeGPUs(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	memory := len(s.GPUs) > 0 && s.GPUs[0].PeakMemory > 0
	if r := s.Reserve; r.Total() > 0 && memory {
		mib := func(b units.Bytes) float64 { return float64(b) / float64(units.MiB) }
		p("  memory reserve per GPU %.2f GiB: CUDA context %.0f MiB, cuBLAS workspaces %.0f MiB, NCCL buffers %.0f MiB, allocator %.0f MiB\n",
			float64(r.Total())/float64(units.GiB), mib(r.Context), mib(r.Workspaces), mib(r.Communicators), mib(r.Allocator))
	}
	if memory {
		p("  %-9s %12s %14s %6s %12s %9s\n", "GPU", "compute", "communication", "busy", "peak memory", "in flight")
	} else {
		p("  %-9s %12s %14s %6s\n", "GPU", "compute", "communication", "busy")
	}
	for i, g := range s.GPUs {
		if i == 16 && len(s.GPUs) > 17 {
			p("  … %d more GPUs (--json lists them all)\n", len(s.GPUs)-16)
			break
		}
		if memory {
			oom := ""
			switch {
			case g.OOM:
				oom = "  OUT OF MEMORY"
			case g.NearOOM:
				oom = "  over 90% of HBM"
			}
			p("  %-9s %12v %14v %5.1f%% %12s %9.2f%s\n", g.Name, g.Compute, g.Communication, 100*g.Busy,
				fmt.Sprintf("%.1f GiB", float64(g.PeakMemory)/float64(units.GiB)), g.PeakInFlight, oom)
		} else {
			p("  %-9s %12v %14v %5.1f%%\n", g.Name, g.Compute, g.Communication, 100*g.Busy)
		}
	}
}
