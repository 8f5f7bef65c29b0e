package collective

import (
	"fmt"
	"strings"

	"paraplay/sim/units"
)

// Protocol is one of NCCL's three ways of moving a message between GPUs,
// priced as a change to the link it runs on: what fraction of the wire
// carries payload, and how much synchronisation each message costs beyond
// the catalog's α.
//
// The catalog's α (sim/hw) is NCCL's per-hop latency of LL128, so LL128
// changes no latency; its bandwidth is the measured large-message rate,
// which NCCL reaches with Simple, so Simple keeps all of it. Sources:
//
//   - Efficiency. LL stores 8 bytes at a time, 4 of data and a 4-byte flag
//     the receiver polls, so half the wire carries payload; LL128 stores
//     128-byte lines of which 8 bytes are the flag, 120/128; Simple sends
//     the payload alone and signals with a separate flag after a memory
//     fence (NCCL's device primitives prims_ll.h and prims_ll128.h; Hu,
//     Shen, Bonato, Jeaugey et al., "Demystifying NCCL", arXiv 2507.04786,
//     2025, on NCCL 2.19).
//   - Latency. NCCL's tuning model gives a per-hop ring latency for each
//     protocol and link class (src/graph/tuning.cc at commit 01afd20,
//     hwLat): NVLink LL 0.47, LL128 1.9, Simple 3.4 µs; PCI 1.0, 2.5,
//     5.7 µs; network 2.7, 4.0, 9.6 µs. HopDelta is each protocol's
//     difference from LL128 in its class: Simple's fence and flag round
//     trip cost more, LL's inline flags less.
//
// NCCL's tuner further scales these bandwidths by factors it fitted to its
// own measurements (LL ring ×1/4 across nodes, tree ×0.9, per-size tree
// corrections); ParaPlay takes none of them: only the wire efficiency
// above, which follows from the formats.
type Protocol struct {
	// Name is how the command line spells it: simple, ll or ll128.
	Name string
	// Efficiency is the payload's share of the bytes on the wire, in
	// (0, 1].
	Efficiency float64
	// HopDelta is the change to a message's α on each link class
	// (LinkClass), relative to the catalog's LL128 α; α never falls below
	// 0.
	HopDelta [3]units.Time
}

// Link classes of a Protocol's HopDelta, as NCCL's tuning model tells
// them apart.
const (
	ClassNVLink = iota // NVLink, NVSwitch and Infinity Fabric inside a node
	ClassPCI           // PCIe
	ClassNet           // every network: InfiniBand, RoCE, Ethernet, WAN
)

// The protocols, in the order "auto" tries them (ties go to the first).
var protocols = []Protocol{
	{Name: "simple", Efficiency: 1, HopDelta: [3]units.Time{1500 * units.Nanosecond, 3200 * units.Nanosecond, 5600 * units.Nanosecond}},
	{Name: "ll128", Efficiency: 120.0 / 128, HopDelta: [3]units.Time{0, 0, 0}},
	{Name: "ll", Efficiency: 0.5, HopDelta: [3]units.Time{-1430 * units.Nanosecond, -1500 * units.Nanosecond, -1300 * units.Nanosecond}},
}

// Protocols lists NCCL's protocols in the order "auto" tries them.
func Protocols() []Protocol { return append([]Protocol(nil), protocols...) }

// ProtocolNames is the protocol names, for messages and flags.
func ProtocolNames() []string {
	var names []string
	for _, p := range protocols {
		names = append(names, p.Name)
	}
	return names
}

// ProtocolByName finds a protocol by its name, in any case; an unknown
// name is an error that lists the allowed ones.
func ProtocolByName(name string) (Protocol, error) {
	for _, p := range protocols {
		if strings.EqualFold(p.Name, name) {
			return p, nil
		}
	}
	return Protocol{}, fmt.Errorf("collective: unknown protocol %q; want one of %s", name, strings.Join(ProtocolNames(), ", "))
}

// LinkClass is the HopDelta class of a link of the given kind (topo's and
// hw's spellings: "nvlink", "infinity-fabric", "pcie", "infiniband", …).
func LinkClass(kind string) int {
	switch kind {
	case "nvlink", "nvswitch", "infinity-fabric", "xgmi":
		return ClassNVLink
	case "pcie":
		return ClassPCI
	}
	return ClassNet
}

// Apply is l as the protocol sees it: α + HopDelta of its class (not
// below 0) and bandwidth × Efficiency.
func (p Protocol) Apply(l Link, class int) Link {
	return Link{Alpha: max(0, l.Alpha+p.HopDelta[class]), Bandwidth: l.Bandwidth * units.Bandwidth(p.Efficiency)}
}
