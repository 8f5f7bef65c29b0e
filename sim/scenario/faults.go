package scenario

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"paraplay/sim/units"
)

// Fault kinds a scenario's faults list takes.
const (
	// FailStop: the GPU stops for good at At (a crash, an Xid error, a
	// lost NVLink). Peers notice after recovery.heartbeat_timeout.
	FailStop = "fail_stop"
	// FailSlow: from At on the GPU computes at Factor of its speed
	// (thermal throttling, a degraded HBM stack, a noisy neighbour).
	FailSlow = "fail_slow"
	// LinkDegrade: from the first iteration that starts at or after At,
	// the network links of Node (its NICs, both directions) run at Factor
	// of their bandwidth: a flapping port, a slow cross-cluster link.
	LinkDegrade = "link_degrade"
	// Preempt: the scheduler takes Node's GPUs away at At. Unlike a crash
	// it announces it, so detection is immediate (no heartbeat wait).
	Preempt = "preempt"
)

// FaultKinds lists the kinds in the order the docs give them.
var FaultKinds = []string{FailStop, FailSlow, LinkDegrade, Preempt}

// MaxFaults bounds the faults list: a lesson shows a handful.
const MaxFaults = 64

// Fault is one event of a scenario's faults list.
type Fault struct {
	// At is when it happens, from the start of the run, ≥ 0.
	At units.Time `yaml:"at" json:"at"`
	// Kind is fail_stop, fail_slow, link_degrade or preempt.
	Kind string `yaml:"kind" json:"kind"`
	// GPU is the GPU id of a fail_stop or fail_slow, 0..gpus−1.
	GPU int `yaml:"gpu" json:"gpu"`
	// Node is the node of a link_degrade or preempt, 0..nodes−1.
	Node int `yaml:"node" json:"node"`
	// Factor is the share of its speed (fail_slow) or bandwidth
	// (link_degrade) the part keeps, 0 < factor < 1: 0.4 makes compute
	// take 2.5× as long.
	Factor float64 `yaml:"factor" json:"factor"`
}

// faultKeys are the keys of one fault, in their canonical order.
var faultKeys = []string{"kind", "at", "gpu", "node", "factor"}

// ParseFaults reads the text form of a faults list: events separated by
// ";", each a list of key=value separated by "," (keys kind, at, gpu,
// node, factor), e.g. "kind=fail_stop,at=2.5s,gpu=13;kind=fail_slow,gpu=3,factor=0.4".
// The YAML list of mappings is turned into this form, so the file and
// the URL share one parser. Errors name the event (faults[i]) and its key.
// The empty string is no faults (nil).
func ParseFaults(text string) ([]Fault, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	items := strings.Split(text, ";")
	if len(items) > MaxFaults {
		return nil, fmt.Errorf("%d events; at most %d allowed", len(items), MaxFaults)
	}
	var out []Fault
	var errs []error
	for i, item := range items {
		f, err := parseFault(item)
		if err != nil {
			errs = append(errs, fmt.Errorf("faults[%d]%w", i, err))
			continue
		}
		out = append(out, f)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// parseFault reads one event; its errors start with ".key: " (or ": ")
// so that the caller can prefix the event's index.
func parseFault(item string) (Fault, error) {
	f := Fault{}
	seen := map[string]bool{}
	for _, kv := range strings.Split(item, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return f, fmt.Errorf(": %q is not key=value (keys: %s)", kv, strings.Join(faultKeys, ", "))
		}
		if seen[k] {
			return f, fmt.Errorf(".%s: given more than once", k)
		}
		seen[k] = true
		var err error
		switch k {
		case "kind":
			f.Kind = v
		case "at":
			f.At, err = units.ParseTime(v)
		case "gpu":
			f.GPU, err = parseIndex(v)
		case "node":
			f.Node, err = parseIndex(v)
		case "factor":
			f.Factor, err = strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(f.Factor) || math.IsInf(f.Factor, 0) {
				err = fmt.Errorf("invalid number %q: want a fraction such as 0.4", v)
			}
		default:
			return f, fmt.Errorf(".%s: unknown key; known: %s", k, strings.Join(faultKeys, ", "))
		}
		if err != nil {
			return f, fmt.Errorf(".%s: %w", k, err)
		}
	}
	if !seen["kind"] {
		return f, fmt.Errorf(".kind: missing; allowed: %s", strings.Join(FaultKinds, ", "))
	}
	return f, nil
}

func parseIndex(v string) (int, error) {
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("invalid whole number %q", v)
	}
	return int(n), nil
}

// FormatFaults writes faults in the form ParseFaults reads, with only the
// keys each kind uses, so ParseFaults(FormatFaults(fs)) gives fs back.
func FormatFaults(fs []Fault) string {
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString("kind=" + f.Kind)
		if f.At != 0 {
			b.WriteString(",at=" + f.At.String())
		}
		if f.GPU != 0 || f.Kind == FailStop || f.Kind == FailSlow {
			b.WriteString(",gpu=" + strconv.Itoa(f.GPU))
		}
		if f.Node != 0 || f.Kind == LinkDegrade || f.Kind == Preempt {
			b.WriteString(",node=" + strconv.Itoa(f.Node))
		}
		if f.Factor != 0 {
			b.WriteString(",factor=" + strconv.FormatFloat(f.Factor, 'g', -1, 64))
		}
	}
	return b.String()
}

// validateFaults checks every event against the cluster.
func (s *Scenario) validateFaults(bad Reporter) {
	s.exclusive("faults", len(s.Faults) > 0, "apply to %s runs; strategy is %s", bad)
	n, nodes := s.NumGPUs(), max(1, s.Cluster.Nodes)
	for i, f := range s.Faults {
		field := fmt.Sprintf("faults[%d]", i)
		if f.At < 0 || f.At > MaxCompute*24 {
			bad(field+".at", "is %v; allowed 0s..%v", f.At, MaxCompute*24)
		}
		switch f.Kind {
		case FailStop, FailSlow:
			if f.GPU < 0 || f.GPU >= n {
				bad(field+".gpu", "is %d; allowed 0..%d (the cluster's GPUs)", f.GPU, n-1)
			}
		case LinkDegrade, Preempt:
			if f.Node < 0 || f.Node >= nodes {
				bad(field+".node", "is %d; allowed 0..%d (the cluster's nodes)", f.Node, nodes-1)
			}
		default:
			bad(field+".kind", "%q is not known; allowed: %s", f.Kind, strings.Join(FaultKinds, ", "))
			continue
		}
		needFactor := f.Kind == FailSlow || f.Kind == LinkDegrade
		switch {
		case needFactor && !(f.Factor > 0 && f.Factor < 1):
			bad(field+".factor", "is %v; a %s needs 0 < factor < 1 (the share of speed kept)", f.Factor, f.Kind)
		case !needFactor && f.Factor != 0:
			bad(field+".factor", "is %v; a %s takes no factor", f.Factor, f.Kind)
		}
		if f.Kind == LinkDegrade && s.Cluster.GPU == "" {
			bad(field+".kind", "link_degrade needs a cluster of catalog GPUs (cluster.gpu) with network links")
		}
	}
}

// Straggler is the random per-op slowness of healthy GPUs.
type Straggler struct {
	// CV is the coefficient of variation (standard deviation over mean)
	// of every compute op's duration on every GPU, 0..1: each op's time
	// is multiplied by a lognormal factor of mean 1 drawn from the seed.
	CV float64 `yaml:"cv" json:"cv"`
}

// StragglerSigma is the σ of the normal whose exponent is the lognormal
// factor of coefficient of variation cv, and Mu its μ for a mean of 1:
// cv² = e^{σ²} − 1 and mean = e^{μ+σ²/2}.
func StragglerSigma(cv float64) (mu, sigma float64) {
	sigma = math.Sqrt(math.Log1p(cv * cv))
	return -sigma * sigma / 2, sigma
}
