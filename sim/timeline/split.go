package timeline

import (
	"fmt"
	"io"

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

// summarizeSplit fills the split summary and every actor's memory.
func (tl *Timeline) summarizeSplit(s *Summary) {
	sp := tl.Split
	if sp == nil {
		return
	}
	tl.summarizeMemory(s)
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
		switch tl.GPUs[g.Rank].Role {
		case "compute":
			out.ComputePeak = max(out.ComputePeak, g.PeakMemory)
		case "client":
			out.ClientPeak = max(out.ClientPeak, g.PeakMemory)
		}
	}
	s.Split = out
}

func (s *SplitSummary) write(w io.Writer) {
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
