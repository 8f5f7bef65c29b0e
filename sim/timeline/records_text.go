//go:build !js

package timeline

import (
	"fmt"
	"io"
	"strings"

	"paraplay/sim/units"
)

// The records' reports as text, for the command line's summary
// (summary_text.go); the browser build has no-op stand-ins (text_js.go).

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
