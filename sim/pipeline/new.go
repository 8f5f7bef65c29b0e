package pipeline

import (
	"fmt"
	"strings"
)

// names lists New's schedule names with the rules each imposes on p, m, v.
var names = []struct{ name, rule string }{
	{"gpipe", "v = 1"},
	{"1f1b", "v = 1"},
	{"interleaved", "v ≥ 1, m a multiple of p"},
	{"zb-h1", "v = 1"},
	{"zb-h2", "v = 1"},
	{"zb-v", "v = 2, m ≥ 2p"},
	{"dualpipev", "v = 2, m ≥ 2p"},
	{"pipedream-async", "v = 1"},
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
// names and their rules.
func New(name string, p, m, v int) (Schedule, error) {
	if p < 1 || m < 1 || v < 0 {
		return Schedule{}, fmt.Errorf("pipeline: p = %d, m = %d, v = %d: need p ≥ 1, m ≥ 1, v ≥ 0", p, m, v)
	}
	if p > MaxOps || m > MaxOps || max(v, 1) > MaxOps || p*m*max(v, 1) > MaxOps {
		return Schedule{}, fmt.Errorf("pipeline: p·m·v = %d·%d·%d is more than %d ops", p, m, max(v, 1), MaxOps)
	}
	known := false
	for _, n := range names {
		known = known || n.name == name
	}
	if !known {
		return Schedule{}, fmt.Errorf("pipeline: unknown schedule %q; %s", name, allowed())
	}
	want := 1
	switch name {
	case "interleaved":
		want = max(v, 1)
	case "zb-v", "dualpipev":
		want = 2
	}
	if v != 0 && v != want {
		return Schedule{}, fmt.Errorf("pipeline: %s runs %d chunk(s) per device, not v = %d; %s", name, want, v, allowed())
	}
	switch name {
	case "gpipe":
		return GPipe(p, m), nil
	case "1f1b":
		return OneFOneB(p, m), nil
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
	case "pipedream-async":
		return PipeDreamAsync(p, m), nil
	}
	panic("pipeline: New misses a case for " + name)
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
