package pipeline

import (
	"fmt"
	"strings"
)

// names lists New's schedule names with the rules each imposes on p, m, v.
var names = []struct{ name, rule string }{
	{"gpipe", "v = 1"},
	{"1f1b", "v = 1"},
	{"ready-first", "v = 1"},
	{"interleaved", "v ≥ 1, m a multiple of p"},
	{"zb-h1", "v = 1"},
	{"zb-h2", "v = 1"},
	{"zb-v", "v = 2, m ≥ 2p"},
	{"dualpipev", "v = 2, m ≥ 2p"},
	{"stp", "v = 2, m ≥ 2p"},
	{"pipedream-async", "v = 1"},
	{"local-loss", "v = 1"},
	{"gpipe-2bp", "v = 1"},
	{"1f1b-2bp", "v = 1"},
	{"hetero-1f1b", "v = 1"},
}

// Names returns the schedule names New accepts, in a fixed order.
func Names() []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n.name
	}
	return out
}

// MaxOps bounds p·m·v in New, so that a command line or a fuzzer cannot ask
// for a schedule too large to hold.
const MaxOps = 1 << 20

// New builds the schedule called name for p devices, m microbatches and v
// chunks per device, for scenarios and the command line. v = 0 means the
// schedule's own chunk count (1, or 2 for the V schedules). An unknown name
// or a (p, m, v) the schedule does not allow is an error that lists the
// names and their rules (the error Check returns).
func New(name string, p, m, v int) (Schedule, error) {
	if err := Check(name, p, m, v); err != nil {
		return Schedule{}, err
	}
	want := chunks(name, v)
	switch name {
	case "gpipe":
		return GPipe(p, m), nil
	case "1f1b", "hetero-1f1b":
		// hetero-1f1b is HAPT's heterogeneity-aware 1F1B (Liang et al.
		// 2025, arXiv 2509.24859): 1F1B until the training simulator,
		// knowing its messages' and stages' times, lengthens each
		// device's warm-up (Schedule.Retime) so sends over a slow link
		// hide under compute.
		s := OneFOneB(p, m)
		s.Name = name
		return s, nil
	case "ready-first":
		return ReadyFirst(p, m), nil
	case "interleaved":
		return Interleaved(p, m, want)
	case "zb-h1":
		return ZBH1(p, m), nil
	case "zb-h2":
		return ZBH2(p, m), nil
	case "zb-v":
		return ZBV(p, m)
	case "dualpipev":
		return DualPipeV(p, m)
	case "stp":
		// Synergistic TP and PP (Qi et al. 2025) braids a forward of one
		// microbatch with a backward of another on the V layout: the order
		// of DualPipeV's overlapped pairs, whose tensor-parallel
		// all-reduces package training hides under the other half.
		s, err := DualPipeV(p, m)
		s.Name = "stp"
		return s, err
	case "pipedream-async":
		return PipeDreamAsync(p, m), nil
	case "local-loss":
		return LocalLoss(p, m), nil
	case "gpipe-2bp":
		return GPipe2BP(p, m), nil
	case "1f1b-2bp":
		return OneFOneB2BP(p, m), nil
	}
	panic("pipeline: New misses a case for " + name)
}

// Check reports whether New accepts (name, p, m, v), with New's error,
// without building the schedule: scenario validation runs on every edit in
// the browser and on every plan the planner tries, and a ZB-V order for
// hundreds of microbatches takes milliseconds to build.
func Check(name string, p, m, v int) error {
	if p < 1 || m < 1 || v < 0 {
		return fmt.Errorf("pipeline: p = %d, m = %d, v = %d: need p ≥ 1, m ≥ 1, v ≥ 0", p, m, v)
	}
	if p > MaxOps || m > MaxOps || max(v, 1) > MaxOps || p*m*max(v, 1) > MaxOps {
		return fmt.Errorf("pipeline: p·m·v = %d·%d·%d is more than %d ops", p, m, max(v, 1), MaxOps)
	}
	known := false
	for _, n := range names {
		known = known || n.name == name
	}
	if !known {
		return fmt.Errorf("pipeline: unknown schedule %q; %s", name, allowed())
	}
	want := chunks(name, v)
	if v != 0 && v != want {
		return fmt.Errorf("pipeline: %s runs %d chunk(s) per device, not v = %d; %s", name, want, v, allowed())
	}
	// The builders' own rules, with their messages.
	switch {
	case name == "interleaved" && m%p != 0:
		return fmt.Errorf("pipeline: interleaved: m = %d microbatches is not a multiple of p = %d stages (Megatron's rule for interleaving)", m, p)
	case name == "zb-v" && m < 2*p:
		return fmt.Errorf("pipeline: zb-v: m = %d microbatches is fewer than 2p = %d (the V's warm-up fills 2p chunks)", m, 2*p)
	case (name == "dualpipev" || name == "stp") && m < 2*p:
		return fmt.Errorf("pipeline: %s: m = %d microbatches is fewer than 2p = %d (DualPipeV's rule)", name, m, 2*p)
	}
	return nil
}

// chunks is the number of chunks per device schedule name runs for New's v.
func chunks(name string, v int) int {
	switch name {
	case "interleaved":
		return max(v, 1)
	case "zb-v", "dualpipev", "stp":
		return 2
	}
	return 1
}

func allowed() string {
	var b strings.Builder
	b.WriteString("schedules (and their rules):")
	for i, n := range names {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s (%s)", n.name, n.rule)
	}
	return b.String()
}
