package collective

import (
	"errors"
	"fmt"

	"paraplay/sim/units"
)

// Limits on a Config, so that a typo on the command line cannot ask for a
// schedule of billions of transfers. Larger runs use the closed forms
// (Time), which cost nothing.
const (
	// MaxRanks is the largest collective New builds a schedule for; Time
	// has no limit.
	MaxRanks = 4096
	// MaxChunks is the most pipeline pieces New cuts a buffer into.
	MaxChunks = 1024
)

// Defaults New uses to choose an algorithm for "auto" when the Config does
// not say: one InfiniBand NDR-class hop.
const (
	DefaultAlpha     = 5 * units.Microsecond
	DefaultBandwidth = 25 * units.GBps
)

// Config says which collective to build: its size and the few knobs the
// algorithms take. Fields an algorithm does not use are ignored.
type Config struct {
	// Ranks is the number of participants n. It may be left 0 when Nodes
	// and PerNode are set; it is then Nodes·PerNode.
	Ranks int
	// Nodes is the number of nodes, for the hierarchical all-reduce.
	Nodes int
	// PerNode is the number of ranks per node (g), for the hierarchical
	// all-reduce; rank r sits on node r / PerNode.
	PerNode int
	// Bytes is S, the buffer size as each operation defines it (see
	// Schedule.Bytes): per rank for all-reduce, reduce-scatter, reduce and
	// all-to-all, the gathered size for all-gather, the root's data for
	// broadcast.
	Bytes units.Bytes
	// Root is the rank that owns the data (broadcast) or receives the sum
	// (reduce).
	Root int
	// Chunks is the number of pipeline pieces (ring, tree: per half;
	// chain: of the whole buffer); 0 means 1, no pipelining.
	Chunks int
	// Channels is the number of parallel rings a ring all_reduce,
	// reduce_scatter or all_gather runs on (NCCL's nChannels;
	// ChannelRing), 1..MaxChannels; 0 means 1. The callers that know the
	// hardware default it to one per NIC of a node (DefaultChannels).
	Channels int
	// Mesh says each node's GPUs are joined pairwise by direct cables
	// (topo.Topology.DirectPorts, MI300X's xGMI) rather than through a
	// switch: a ring on channels across nodes then lays each channel on
	// cables of its own (MeshChannelRing).
	Mesh bool
	// Servers is the number of parameter servers among the Ranks for the
	// ps algorithm (ranks 0..Servers−1); 0 means 1.
	Servers int
	// Alpha is the per-message latency "auto" assumes when it compares
	// algorithms; 0 means DefaultAlpha. Time takes its own α.
	Alpha units.Time
	// Bandwidth is the per-port bandwidth "auto" assumes; 0 means
	// DefaultBandwidth.
	Bandwidth units.Bandwidth
}

// Validate reports every field that is out of range.
func (c Config) Validate() error {
	var errs []error
	n := c.ranks()
	switch {
	case c.Nodes < 0 || c.PerNode < 0:
		errs = append(errs, fmt.Errorf("collective: nodes %d and per-node %d must not be negative", c.Nodes, c.PerNode))
	case c.Ranks != 0 && c.Nodes > 0 && c.PerNode > 0 && c.Ranks != c.Nodes*c.PerNode:
		errs = append(errs, fmt.Errorf("collective: %d ranks is not %d nodes × %d per node", c.Ranks, c.Nodes, c.PerNode))
	}
	if n < 1 {
		errs = append(errs, fmt.Errorf("collective: ranks %d, want at least 1", n))
	}
	if c.Bytes < 0 {
		errs = append(errs, fmt.Errorf("collective: bytes %d is negative", c.Bytes))
	}
	if c.Root < 0 || c.Root >= max(n, 1) {
		errs = append(errs, fmt.Errorf("collective: root %d is not one of %d ranks", c.Root, n))
	}
	if c.Chunks < 0 || c.Chunks > MaxChunks {
		errs = append(errs, fmt.Errorf("collective: chunks %d outside 0..%d", c.Chunks, MaxChunks))
	}
	if c.Channels < 0 || c.Channels > MaxChannels {
		errs = append(errs, fmt.Errorf("collective: channels %d outside 0..%d", c.Channels, MaxChannels))
	}
	if c.Servers < 0 || (c.Servers > 0 && c.Servers >= n) {
		errs = append(errs, fmt.Errorf("collective: %d servers must leave at least one of %d ranks a worker", c.Servers, n))
	}
	if c.Alpha < 0 || c.Bandwidth < 0 {
		errs = append(errs, fmt.Errorf("collective: alpha %v and bandwidth %v must not be negative", c.Alpha, c.Bandwidth))
	}
	return errors.Join(errs...)
}

// ranks is n: Ranks, or Nodes·PerNode when Ranks is 0.
func (c Config) ranks() int {
	if c.Ranks == 0 && c.Nodes > 0 && c.PerNode > 0 {
		return c.Nodes * c.PerNode
	}
	return c.Ranks
}

// chunks is Chunks with 0 read as 1.
func (c Config) chunks() int { return max(c.Chunks, 1) }

// channels is Channels with 0 read as 1.
func (c Config) channels() int { return max(c.Channels, 1) }

// DefaultChannels is the channel count NCCL uses on a cluster whose GPUs
// each have their own NIC: one ring per NIC of a node (perNode) once the
// collective spans several nodes, and one ring inside a node, where
// channels share the same NVLink ports and gain nothing.
func DefaultChannels(nodes, perNode int) int {
	if nodes > 1 && perNode > 1 {
		return min(perNode, MaxChannels)
	}
	return 1
}

// servers is Servers with 0 read as 1.
func (c Config) servers() int { return max(c.Servers, 1) }

// twoLevel returns Nodes and PerNode, or one node of all ranks when they
// are not set.
func (c Config) twoLevel() (nodes, perNode int) {
	if c.Nodes > 0 && c.PerNode > 0 {
		return c.Nodes, c.PerNode
	}
	return 1, c.ranks()
}
