package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"paraplay/sim/hw"
)

// Partitions are the ways parallel.partition splits layers over stages.
var Partitions = []string{"equal", "balanced", "operators"}

// SeqDists are the distributions data.seq_dist draws sequence lengths from.
var SeqDists = []string{"fixed", "uniform", "lognormal"}

// Assigns are the ways data.assign deals a batch's sequences to replicas.
var Assigns = []string{"random", "balanced"}

// MaxIterations bounds iterations: the animated run simulates each one.
const MaxIterations = 64

// Data says how the sequences of a batch are drawn.
type Data struct {
	// SeqDist is how each microbatch's sequence length is drawn (seeded):
	// fixed (model.seq_len, the default), uniform (on 1..2·seq_len, mean
	// seq_len) or lognormal (mean seq_len, coefficient of variation
	// SeqCV, at most 8·seq_len): documents vary in length, and the
	// attention cost grows with its square (Hydraulis).
	SeqDist string `yaml:"seq_dist" json:"seq_dist"`
	// SeqCV is the lognormal's coefficient of variation, 0..4.
	SeqCV float64 `yaml:"seq_cv" json:"seq_cv"`
	// Assign is how the batch's sequences reach the replicas: random (the
	// default: each replica trains on the microbatches drawn for it, as a
	// shuffling loader deals them) or balanced (Hydraulis's cost-balanced
	// assignment: the step's sequences go to replicas, and each replica's
	// to its microbatches, by the greedy longest-processing-time rule on
	// their predicted cost; package balance).
	Assign string `yaml:"assign" json:"assign"`
}

// ParseNodeGPUs reads cluster.node_gpus: GPU presets, one per node, separated
// by commas; "name*k" stands for k nodes of that preset, e.g.
// "h100-sxm*2,a100-sxm-80gb*2". The empty string is nil (every node is
// cluster.gpu).
func ParseNodeGPUs(text string) ([]string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	rs, err := splitRuns(text, MaxNodes, "nodes")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range rs {
		if r.item == "" {
			return nil, fmt.Errorf("%q: empty GPU preset", r.text)
		}
		for range r.k {
			out = append(out, r.item)
		}
	}
	return out, nil
}

// run is one item of a list in which "x*k" repeats x k times.
type run struct {
	text, item string // the item as written, and without its *k
	k          int
}

// splitRuns splits a comma-separated list of items, each repeated k times
// when written "item*k", k in 1..max and at most max items in all (what
// names them in the error).
func splitRuns(text string, max int, what string) ([]run, error) {
	var out []run
	total := 0
	for _, item := range strings.Split(text, ",") {
		name, count, rep := strings.Cut(strings.TrimSpace(item), "*")
		k := 1
		if rep {
			n, err := strconv.Atoi(strings.TrimSpace(count))
			if err != nil || n < 1 || n > max {
				return nil, fmt.Errorf("%q: the count after * must be 1..%d", item, max)
			}
			k = n
		}
		if total += k; total > max {
			return nil, fmt.Errorf("more than %d %s", max, what)
		}
		out = append(out, run{text: item, item: strings.TrimSpace(name), k: k})
	}
	return out, nil
}

// FormatNodeGPUs writes presets in the form ParseNodeGPUs reads, runs of
// one preset as name*k.
func FormatNodeGPUs(gpus []string) string {
	var parts []string
	for i := 0; i < len(gpus); {
		j := i
		for j < len(gpus) && gpus[j] == gpus[i] {
			j++
		}
		if j-i > 1 {
			parts = append(parts, gpus[i]+"*"+strconv.Itoa(j-i))
		} else {
			parts = append(parts, gpus[i])
		}
		i = j
	}
	return strings.Join(parts, ",")
}

// GPUOfNode is the GPU preset of node n: its entry of node_gpus, or
// cluster.gpu.
func (s *Scenario) GPUOfNode(n int) string {
	if n >= 0 && n < len(s.Cluster.NodeGPUs) {
		return s.Cluster.NodeGPUs[n]
	}
	return s.Cluster.GPU
}

// validateHetero checks node_gpus, partition, data and iterations.
func (s *Scenario) validateHetero(bad Reporter) {
	c := s.Cluster
	if len(c.NodeGPUs) > 0 {
		if c.GPU == "" {
			bad("cluster.node_gpus", "needs cluster.gpu, whose preset sets the links inside each node")
		}
		if nodes := max(1, c.Nodes); len(c.NodeGPUs) != nodes {
			bad("cluster.node_gpus", "lists %d presets for %d nodes; give one per node (name*k repeats)", len(c.NodeGPUs), nodes)
		}
		for _, g := range c.NodeGPUs {
			if _, err := hw.LookupGPU(g); err != nil {
				bad("cluster.node_gpus", "%v", err)
				break
			}
		}
		s.exclusive("cluster.node_gpus", true, "applies to %s runs; strategy is %s", bad)
	}
	if !contains(Partitions, s.Parallel.Partition) {
		bad("parallel.partition", "%q is not known; allowed: %s", s.Parallel.Partition, strings.Join(Partitions, ", "))
	}
	if !contains(SeqDists, s.Data.SeqDist) {
		bad("data.seq_dist", "%q is not known; allowed: %s", s.Data.SeqDist, strings.Join(SeqDists, ", "))
	}
	if !(s.Data.SeqCV >= 0 && s.Data.SeqCV <= 4) {
		bad("data.seq_cv", "is %v; allowed 0..4", s.Data.SeqCV)
	}
	if s.Data.Assign != "" && !contains(Assigns, s.Data.Assign) {
		bad("data.assign", "%q is not known; allowed: %s", s.Data.Assign, strings.Join(Assigns, ", "))
	} else if s.Data.Assign == "balanced" && (s.Data.SeqDist == "fixed" || s.Data.SeqDist == "") {
		bad("data.assign", "is balanced with data.seq_dist fixed: sequences of one length are balanced already; set data.seq_dist to uniform or lognormal")
	}
	if s.Data.SeqDist != "fixed" && s.Data.SeqDist != "" && s.Model.IsSynthetic() {
		bad("data.seq_dist", "is %s with a synthetic model; sequence lengths need a model preset", s.Data.SeqDist)
	}
	if s.Iterations < 1 || s.Iterations > MaxIterations {
		bad("iterations", "is %d; allowed 1..%d", s.Iterations, MaxIterations)
	}
	if !(s.Straggler.CV >= 0 && s.Straggler.CV <= 1) {
		bad("straggler.cv", "is %v; allowed 0..1", s.Straggler.CV)
	} else {
		s.exclusive("straggler.cv", s.Straggler.CV > 0, "applies to %s runs; strategy %s spreads compute with compute.jitter", bad)
	}
	s.exclusive("data.seq_dist", s.Data.SeqDist != "fixed" && s.Data.SeqDist != "", "applies to %s runs; strategy is %s", bad)
}
