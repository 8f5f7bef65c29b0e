package hw

import (
	"math"

	"paraplay/sim/units"
)

// LinkKind is the technology of a link. Fabric models use it to decide, for
// example, whether a link is inside a node (NVLink, Infinity Fabric, PCIe)
// or between nodes.
type LinkKind string

// The kinds of link in the catalog.
const (
	KindNVLink         LinkKind = "nvlink"
	KindInfinityFabric LinkKind = "infinity-fabric"
	KindPCIe           LinkKind = "pcie"
	KindInfiniBand     LinkKind = "infiniband"
	KindRoCE           LinkKind = "roce"
	KindEthernet       LinkKind = "ethernet"
	KindWAN            LinkKind = "wan"
)

var linkKinds = []LinkKind{KindNVLink, KindInfinityFabric, KindPCIe, KindInfiniBand, KindRoCE, KindEthernet, KindWAN, KindICI}

// Link describes one GPU's attachment to a fabric: how fast it sends in one
// direction, how much of that a large message gets, and what each message
// costs up front.
type Link struct {
	// The blank field makes the type incomparable, so the compiler generates no
	// equality code for it and for each catalog array literal of it (about
	// 7 KB of the gzipped wasm); compare presets by Name.
	_ [0]func()
	// Name is the preset's key: lower case, words joined by hyphens
	// ("nvlink4", "ib-ndr").
	Name string `json:"name"`
	// Kind is the link technology.
	Kind LinkKind `json:"kind"`
	// DisplayName is the name a reader knows, e.g. "NVLink 4 (H100 SXM)".
	DisplayName string `json:"display_name"`
	// LineRate is the signalling rate available to one GPU in ONE direction,
	// in bytes per second. Vendors often quote both directions added
	// together; this field is half of such a figure.
	LineRate units.Bandwidth `json:"line_rate_bytes_per_s"`
	// Achievable is the fraction of LineRate that a large message actually
	// gets after protocol overhead, in (0, 1]. Where a published
	// measurement exists it is fitted to it (see MeasuredBusBW); otherwise
	// it is an assumption explained in AchievableBasis.
	Achievable float64 `json:"achievable_fraction"`
	// AchievableBasis says where Achievable comes from.
	AchievableBasis string `json:"achievable_basis"`
	// Latency is α, the fixed cost of one message (one step of a ring) at the
	// level of NCCL, not the wire: a few µs on NVLink, several on a network,
	// tens of ms across a WAN.
	Latency units.Time `json:"latency_ns"`
	// LatencyBasis says where Latency comes from.
	LatencyBasis string `json:"latency_basis"`
	// Source cites the document that gives LineRate.
	Source string `json:"source"`
	// MeshPeers is, for a link that joins a server's GPUs pairwise with
	// no switch (AMD's Infinity Fabric mesh), how many peers each GPU has
	// a cable of its own to; LineRate is the sum over them, split evenly
	// (PeerRate). 0 for a link through a switch.
	MeshPeers int `json:"mesh_peers,omitempty"`
	// SHARP says the switches of this network reduce in the network
	// (NVIDIA SHARP on Quantum InfiniBand switches): a node sends its data
	// once to its leaf switch and gets the sum back, NCCL's CollNet.
	// Only an InfiniBand link may set it; SHARPSource gives the basis.
	SHARP bool `json:"sharp,omitempty"`
	// MeasuredBusBW is a published nccl-tests all_reduce_perf bus bandwidth
	// for large messages with the ring algorithm over this link, or 0 when
	// the catalog has none. The tests check Effective against it.
	MeasuredBusBW units.Bandwidth `json:"measured_busbw_bytes_per_s,omitempty"`
	// MeasuredSource cites MeasuredBusBW exactly: where it was published,
	// on what system, and the figure.
	MeasuredSource string `json:"measured_source,omitempty"`
}

// Effective is the bandwidth a large message gets in one direction: line
// rate × achievable fraction. It is the β⁻¹ of the α–β model and, for a ring
// all-reduce of large messages, the bus bandwidth nccl-tests would report.
func (l Link) Effective() units.Bandwidth {
	return l.LineRate * units.Bandwidth(l.Achievable)
}

// PeerRate is the line rate of the cable to one mesh peer, LineRate /
// MeshPeers, or LineRate for a switched link.
func (l Link) PeerRate() units.Bandwidth {
	return l.LineRate / units.Bandwidth(max(l.MeshPeers, 1))
}

func knownKind(k LinkKind) bool {
	for _, known := range linkKinds {
		if k == known {
			return true
		}
	}
	return false
}

func positive(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

func fraction(v float64) bool { return v > 0 && v <= 1 }
