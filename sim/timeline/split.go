package timeline

import (
	"fmt"

	"paraplay/sim/units"
)

// Split records a split-learning or federated-averaging run: who the
// clients and compute nodes are, the layers each holds, and its rounds.
type Split struct {
	// Mode is "split" (split learning) or "fedavg" (federated averaging).
	Mode string `json:"mode"`
	// Model names the model trained; Device the clients' device preset
	// and ComputeGPU the compute nodes' accelerator.
	Model      string `json:"model"`
	Device     string `json:"device"`
	ComputeGPU string `json:"compute_gpu"`
	// Clients and Compute are the GPU ids of the client devices and of
	// the compute nodes (in chain order).
	Clients []int `json:"clients"`
	Compute []int `json:"compute"`
	// Speeds are the clients' speed factors (1 is the device's nominal).
	Speeds []float64 `json:"speeds"`
	// ClientLayers is the range [from, to) of layers every client runs;
	// NodeLayers the range of each compute node (empty for fedavg).
	ClientLayers [2]int   `json:"client_layers"`
	NodeLayers   [][2]int `json:"node_layers,omitempty"`
	Rounds       []Round  `json:"rounds"`
}

// Round is one round of a split or federated run.
type Round struct {
	// Index numbers the round from 0.
	Index int `json:"index"`
	// Start and End bound it: End is when its slowest client finished.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
	// Slowest is the index (in Clients) of the client that finished last.
	Slowest int `json:"slowest"`
	// ServerStart and ServerEnd bound the server side's work: from the
	// last client's activations arriving to the first gradient leaving
	// (split learning; zero for fedavg).
	ServerStart units.Time `json:"server_start,omitempty"`
	ServerEnd   units.Time `json:"server_end,omitempty"`
}

// SplitSummary is the headline of a split or federated run.
type SplitSummary struct {
	// Mode, Clients and Hops say what ran.
	Mode    string `json:"mode"`
	Clients int    `json:"clients"`
	Hops    int    `json:"hops"`
	// Rounds is the number of rounds; MeanRound their mean length.
	Rounds    int        `json:"rounds"`
	MeanRound units.Time `json:"mean_round_ns"`
	// SlowestClient is the client that ended the most rounds last.
	SlowestClient int `json:"slowest_client"`
	// ComputePeak is the largest peak memory of a compute node (split),
	// ClientPeak that of a client.
	ComputePeak units.Bytes `json:"compute_peak_bytes"`
	ClientPeak  units.Bytes `json:"client_peak_bytes"`
}

// Report is the split part of the summary: a *SplitSummary. It reads the
// GPUs' peak memory from s.
func (sp *Split) Report(tl *Timeline, s *Summary) Report {
	out := &SplitSummary{Mode: sp.Mode, Clients: len(sp.Clients), Hops: len(sp.NodeLayers), Rounds: len(sp.Rounds)}
	last := make(map[int]int)
	var total units.Time
	for _, r := range sp.Rounds {
		total += r.End - r.Start
		last[r.Slowest]++
	}
	if len(sp.Rounds) > 0 {
		out.MeanRound = total / units.Time(len(sp.Rounds))
	}
	for c, n := range last {
		if n > last[out.SlowestClient] || (n == last[out.SlowestClient] && c < out.SlowestClient) {
			out.SlowestClient = c
		}
	}
	for _, g := range s.GPUs {
		if !tl.isGPU(g.Rank) {
			continue
		}
		switch tl.GPUs[g.Rank].Role {
		case "compute":
			out.ComputePeak = max(out.ComputePeak, g.PeakMemory)
		case "client":
			out.ClientPeak = max(out.ClientPeak, g.PeakMemory)
		}
	}
	return out
}

// Check checks the record against the run: the clients and compute nodes
// are GPUs of their role, one speed per client, the layers tile the model
// from layer 0 (the clients' first, then each compute node's in chain
// order), and the rounds come in order inside the run.
func (sp *Split) Check(tl *Timeline) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, errorf(format, args)) }
	for _, actor := range []struct {
		role string
		ids  []int
	}{{"client", sp.Clients}, {"compute", sp.Compute}} {
		for i, g := range actor.ids {
			if !tl.isGPU(g) || tl.GPUs[g].Role != actor.role {
				bad("%s %d is vertex %d, not a GPU of role %q", actor.role, i, g, actor.role)
			}
		}
	}
	if len(sp.Speeds) != len(sp.Clients) {
		bad("%d speeds for %d clients", len(sp.Speeds), len(sp.Clients))
	}
	for i, v := range sp.Speeds {
		if !(v > 0) {
			bad("client %d's speed is %g", i, v)
		}
	}
	if sp.ClientLayers[0] != 0 || sp.ClientLayers[1] < 1 {
		bad("the clients hold layers %v, not the first ones", sp.ClientLayers)
	}
	at := sp.ClientLayers[1]
	for i, l := range sp.NodeLayers {
		if l[0] != at || l[1] <= l[0] {
			bad("compute node %d holds layers %v, not the ones after layer %d", i, l, at)
		}
		at = l[1]
	}
	for i, r := range sp.Rounds {
		if err := sp.checkRound(i, r, tl.End); err != nil {
			bad("rounds[%d]: %v", i, err)
		}
	}
	return errs
}

// checkRound checks round i: its number, its interval inside the run after
// the round before, its slowest client, the server side's work inside it.
func (sp *Split) checkRound(i int, r Round, end units.Time) error {
	var prev units.Time
	if i > 0 {
		prev = sp.Rounds[i-1].End
	}
	switch {
	case r.Index != i:
		return fmt.Errorf("round %d out of order", r.Index)
	case r.Start < prev || r.End < r.Start || r.End > end:
		return fmt.Errorf("[%v, %v] before the round before (ended %v) or outside the run", r.Start, r.End, prev)
	case r.Slowest < 0 || r.Slowest >= len(sp.Clients):
		return fmt.Errorf("slowest client %d does not exist", r.Slowest)
	case r.ServerEnd < r.ServerStart || (r.ServerEnd > 0 && (r.ServerStart < r.Start || r.ServerEnd > r.End)):
		return fmt.Errorf("server side [%v, %v] outside the round [%v, %v]", r.ServerStart, r.ServerEnd, r.Start, r.End)
	}
	return nil
}
