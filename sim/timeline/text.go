//go:build !js

package timeline

import (
	"fmt"
	"io"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// The summary's text, for the command line and the site's build. The
// browser shows a run as a picture and its figures as values (Summarize),
// never as text: leaving the writers out of GOOS=js keeps them out of the
// wasm (text_js.go).

// textReport is what a Report prints: its lines for people.
type textReport interface {
	// WriteText prints the report's lines, each indented by two spaces.
	WriteText(w io.Writer)
}

// WriteText prints the summary for people: the run's time with every
// record's report (Summary.reports), the core figures, the collectives and
// the GPUs.
func (s Summary) WriteText(w io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("%s (%s simulation)\n", s.Title, s.Fidelity)
	if reports := s.reports(); len(reports) > 0 {
		p("  run time              %v\n", s.Iteration)
		for _, r := range reports {
			r.WriteText(w)
		}
	} else {
		p("  iteration time        %v\n", s.Iteration)
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

// reports lists the summary's reports: the typed ones in the order of
// builtins, then Extra in sorted key order.
func (s *Summary) reports() []Report {
	var out []Report
	for _, b := range builtins {
		if r := b.report(s); r != nil {
			out = append(out, r)
		}
	}
	for _, name := range sortedKeys(s.Extra) {
		if r := s.Extra[name]; r != nil {
			out = append(out, r)
		}
	}
	return out
}

// WriteText prints the summary for people.
func (s *InferenceSummary) WriteText(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("  requests              %d × (%d prompt + %d output tokens)\n", s.Requests, s.Prompt, s.Output)
	p("  throughput            %.0f output tokens/s\n", s.TokensPerSecond)
	p("  time to first token   %v (mean)\n", s.TTFT)
	p("  time per output token %v (mean)\n", s.TPOT)
	p("  KV cache              %v per token per GPU; room for %d tokens (%d requests) on the fullest GPU\n",
		s.KVBytesPerToken, s.KVCapacity, s.KVRequests)
	p("  bubbles (GPU-time)   ")
	for _, k := range BubbleKinds {
		p(" %s %v (%.1f%%)", k, s.Bubbles[k], 100*s.BubbleShare[k])
	}
	p("\n")
}

// WriteText prints the summary for people.
func (s *RLHFSummary) WriteText(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("  rlhf                  %s: %d steps, %v a step, %.3f steps/s\n", s.Placement, s.Steps, s.StepTime, s.Throughput)
	var total units.Time
	for _, d := range s.Phases {
		total += d
	}
	p("  GPU-time by phase    ")
	for _, k := range []Kind{Reshard, Generate, Score, Train, WeightSync} {
		if d := s.Phases[k]; d > 0 {
			p(" %s %.1f%%", k, 100*d.Seconds()/total.Seconds())
		}
	}
	p("\n")
	p("  rollout queue         peak %d batches; staleness mean %.2f, max %d versions\n", s.MaxQueue, s.MeanStaleness, s.MaxStaleness)
	p("  cost                  $%.4f in all, $%.4f a step\n", s.Cost, s.CostPerStep)
	for _, pool := range s.Pools {
		oom := ""
		if pool.OOM() {
			oom = "  OUT OF MEMORY"
		}
		p("  %-21s %d× %s, peak %.1f GiB of %.0f GiB a GPU%s\n", pool.Name, len(pool.GPUs), pool.GPU,
			float64(pool.PeakMemory)/float64(units.GiB), float64(pool.Capacity)/float64(units.GiB), oom)
	}
}

// WriteText prints the summary for people.
func (s *SplitSummary) WriteText(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	what := "federated averaging"
	if s.Mode == "split" {
		what = fmt.Sprintf("split learning, %d compute node(s)", s.Hops)
	}
	p("  %s, %d clients\n", what, s.Clients)
	p("  rounds                %d, mean %v; client %d was the slowest most often\n", s.Rounds, s.MeanRound, s.SlowestClient)
	if s.Mode == "split" {
		p("  peak memory           %.2f GiB per compute node (largest), %.2f GiB per client\n",
			float64(s.ComputePeak)/float64(units.GiB), float64(s.ClientPeak)/float64(units.GiB))
	} else {
		p("  peak memory           %.2f GiB per client\n", float64(s.ClientPeak)/float64(units.GiB))
	}
}

// WriteText prints the summary for people.
func (s *AsyncSummary) WriteText(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("  synchronisation       %s: %d iterations, %.1f iterations/s, %v sent\n", s.Mode, s.Iterations, s.Throughput, s.Bytes)
	p("  version lag           mean %.2f, max %d; mean staleness %.2f updates\n", s.MeanLag, s.MaxLag, s.MeanStaleness)
	p("  %-9s %6s %10s %14s %12s\n", "worker", "speed", "iterations", "waited", "lag mean/max")
	for _, x := range s.Workers {
		p("  %-9s %6.2f %10d %14v %10.2f/%d\n", x.Name, x.Speed, x.Iterations, x.Wait, x.MeanLag, x.MaxLag)
	}
}

// WriteText prints one line per iteration, then the recovery steps.
func (r iterationsReport) WriteText(w io.Writer) { writeIterations(w, r.Iterations, r.Recovery) }

// writeIterations prints one line per iteration (its step, time, the
// predictor's time and the detectors' verdicts), then the recovery steps.
func writeIterations(w io.Writer, its []Iteration, rec []Recovery) {
	fmt.Fprintf(w, "  %-4s %-5s %-14s %-14s %-14s %s\n", "#", "step", "observed", "predicted", "median before", "verdict")
	for _, it := range its {
		verdict := ""
		switch {
		case it.Aborted:
			verdict = "lost to a failure"
		default:
			if it.NaiveFlag {
				verdict += "naive: slow; "
			}
			if it.PredictorFlag {
				verdict += fmt.Sprintf("predictor: GPU %d at %.2f× its prediction; ", it.SlowGPU, it.SlowRatio)
			}
			if it.Redo {
				verdict += "redo; "
			}
			if it.Imbalance > 1.05 {
				verdict += fmt.Sprintf("replica imbalance %.2f; ", it.Imbalance)
			}
			verdict = strings.TrimSuffix(verdict, "; ")
		}
		fmt.Fprintf(w, "  %-4d %-5d %-14v %-14v %-14v %s\n", it.Index, it.Step, it.Observed(), it.Predicted, it.Median, verdict)
	}
	for _, r := range rec {
		fmt.Fprintf(w, "  %-10s at %-14v %s\n", r.Kind, r.Start, r.Detail)
	}
}
