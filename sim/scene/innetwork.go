package scene

import (
	"cmp"
	"math"
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// The two all-reduces in which a switch adds, NCCL's NVLS (the NVSwitch
// of one node) and CollNet (IB SHARP: the network's leaf switches), have
// no messages between GPUs: the run records them as one analytic
// collective of their closed form's length. Their picture is that closed
// form's: while the collective runs, the switches that add are lit, the
// links to them carry the form's bytes in each direction as their load
// (collective.NVLSLinkBytes, CollNetLinkBytes), and markers stream up to
// the switch (data to add) and back (the sum).

// Algorithm names of the in-network all-reduces (nccltest's).
const (
	algoNVLS    = "nvls"
	algoCollNet = "collnet"
)

// Colours of an in-network reduction: the switch while it adds, and the
// sum streaming back from it.
var (
	colAdding = colNearOOM   // amber
	colSum    = colAllGather // purple, the returning half's phase
)

// inNetwork is one in-network all-reduce of a run, worked out once.
type inNetwork struct {
	c       *timeline.Collective
	streams []stream
	adds    []int    // the vertex ids of the switches that add
	labels  []string // by index in adds: "<name> adds"
}

// stream is one link of an in-network reduction: its load while the
// collective runs and, when marked, the direction of its marker.
type stream struct {
	path   [1]int // the link, as a path for topoLayout.along
	load   float64
	up     bool // toward the switch that adds (else the sum coming back)
	marked bool
}

// inNetworksOf finds tl's in-network all-reduces.
func inNetworksOf(tl *timeline.Timeline) []inNetwork {
	var out []inNetwork
	for i := range tl.Collectives {
		c := &tl.Collectives[i]
		if (c.Algorithm == algoNVLS || c.Algorithm == algoCollNet) && c.End > c.Start && len(c.GPUs) > 1 {
			out = append(out, inNetworkOf(tl, c))
		}
	}
	return out
}

// inNetworkOf lays out c's streams: for NVLS each GPU's links to its
// node's switch, which adds; for CollNet those links (the reduce-scatter
// and all-gather inside the node) and each GPU's NIC links to its leaf,
// which adds — with the spine too when GPUs of one local index sit on
// different leaves. It takes c for a lone collective over the cluster,
// whose GPUs are numbered node by node, g to a node.
func inNetworkOf(tl *timeline.Timeline, c *timeline.Collective) inNetwork {
	n, secs, nvls := len(tl.GPUs), (c.End - c.Start).Seconds(), c.Algorithm == algoNVLS
	g := 0 // GPUs in a node
	for x := range n {
		if tl.GPUs[x].Node == tl.GPUs[0].Node {
			g++
		}
	}
	// The bytes of a link to the node's switch, up and down, and of a NIC.
	intra, down := collective.NVLSLinkBytes(len(c.GPUs), c.Bytes)
	nic := 0.0
	if !nvls {
		intra, nic = collective.CollNetLinkBytes(g, c.Bytes)
		down = intra
	}
	// adds[v]: vertex v adds; for a GPU x, adds holds no meaning but its
	// leaf's id + 1 is kept in leaf[x].
	adds, leaf := make([]bool, n+len(tl.Switches)), make([]int, n)
	in, spine := inNetwork{c: c}, false
	for i, l := range tl.Links {
		x, v, up := l.From, l.To, true
		if x >= n {
			x, v, up = l.To, l.From, false
		}
		if x < 0 || x >= n || v < n || v >= len(adds) || !(l.Bandwidth > 0) {
			continue
		}
		bytes, adding := intra, nvls
		if !up {
			bytes = down
		}
		if tl.Switches[v-n].Node < 0 { // a NIC's link to its leaf
			if nvls {
				continue
			}
			bytes, adding, leaf[x] = nic, true, v+1
			spine = spine || leaf[x%g] > 0 && leaf[x%g] != v+1
		}
		adds[v] = adds[v] || adding
		in.streams = append(in.streams, stream{path: [1]int{i}, load: bytes / (secs * float64(l.Bandwidth)), up: up, marked: adding})
	}
	for j, sw := range tl.Switches {
		if v := n + j; adds[v] || spine && sw.Kind == "spine" {
			in.adds, in.labels = append(in.adds, v), append(in.labels, cmp.Or(sw.Name, sw.Kind)+" adds")
		}
	}
	return in
}

// active reports whether in runs at t.
func (in *inNetwork) active(t units.Time) bool { return in.c.Start <= t && t < in.c.End }

// addInNetworkLoads adds to u, by link id, the loads of the in-network
// reductions running at t.
func (f *Frames) addInNetworkLoads(u []float64, t units.Time) {
	for k := range f.innet {
		in := &f.innet[k]
		if !in.active(t) {
			continue
		}
		for _, s := range in.streams {
			if id := s.path[0]; id < len(u) {
				u[id] += s.load
			}
		}
	}
}

// adding is the label of switch vertex v when it adds at t, else "".
func (f *Frames) adding(v int, t units.Time) string {
	for k := range f.innet {
		in := &f.innet[k]
		if !in.active(t) {
			continue
		}
		for j, a := range in.adds {
			if a == v {
				return in.labels[j]
			}
		}
	}
	return ""
}

// markerCycles is how many times a stream's marker crosses its link while
// the collective runs: the closed form has no pieces, so the markers only
// show which way the data flows and that it flows all along.
const markerCycles = 6

// inNetworkMarkers draws, for every in-network reduction running at t, a
// marker on each marked stream: white with the reduce-scatter's outline
// on its way to the switch, filled with the sum's colour on its way back.
func (b *builder) inNetworkMarkers(L topoLayout, t units.Time) {
	size := max(3, min(14*b.s, L.gpuW*0.45, L.gpuH*0.45))
	for k := range b.f.innet {
		in := &b.f.innet[k]
		if !in.active(t) {
			continue
		}
		phase := float64(t-in.c.Start) / float64(in.c.End-in.c.Start) * markerCycles
		f := phase - math.Floor(phase)
		for i := range in.streams {
			s := &in.streams[i]
			px, py, ok := L.along(s.path[:], f)
			if !s.marked || !ok {
				continue
			}
			id, fill, edge := b.f.ids.innetDown.at(s.path[0]), colSum, colSum
			if s.up {
				id, fill, edge = b.f.ids.innetUp.at(s.path[0]), colWhite, colReduceScatter
			}
			sq := b.rect(id, px-size/2, py-size/2, size, size, fill)
			sq.Stroke, sq.StrokeWidth = edge, max(0.75, min(2*b.s, size/6))
		}
	}
}

// inNetworkEntries is the legend of a run with an in-network reduction.
func inNetworkEntries(*Frames) []legendEntry {
	return append(slices.Clone(legendEntries[2:5]), inNetworkLegend[:]...)
}

// inNetworkLegend are the swatches of an in-network reduction.
var inNetworkLegend = [...]legendEntry{
	{"to-switch", "data to add, to the switch", colWhite, colReduceScatter},
	{"sum", "the sum, back from it", colSum, Color{}},
	{"adding", "switch adding", colAdding, Color{}},
}

// inNetworkNote is the caption's note on an in-network all-reduce c, or
// "" for any other collective.
func inNetworkNote(c *timeline.Collective) string {
	switch c.Algorithm {
	case algoNVLS:
		return "the NVSwitch adds every GPU's data and multicasts the sum (closed form)"
	case algoCollNet:
		return "the leaf switches add the nodes' shards and send the sum back (closed form)"
	}
	return ""
}
