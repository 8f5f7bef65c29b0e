package topo

import "fmt"

// Torus is the shape of a TPU slice (or of several, joined by a data-centre
// network): chips on a 1D, 2D or 3D grid, each joined to its neighbours
// along every axis by direct ICI links, with a wraparound link closing an
// axis into a ring where the hardware has one. Chip ids run slice by slice
// and within a slice through the axes in Order, the first fastest: by
// default x fastest, id = s·Chips() + x + X·(y + Y·z).
type Torus struct {
	// Dims is the chips along x, y and z; 1 on an unused axis.
	Dims [3]int
	// Wrap says which axes are closed into rings by a wraparound link.
	Wrap [3]bool
	// Twisted shifts the wraparound links of the shorter axes by half the
	// longest axis (Camara et al. 2010, "Twisted torus topologies for
	// enhanced interconnection networks"), as TPU v4 and v5p may wire a
	// k×k×2k or k×2k×2k slice (Jouppi et al. 2023): a message across the
	// slice takes fewer hops. The per-axis ring collectives treat a
	// twisted axis as unwrapped (its wraparound lands on another ring).
	Twisted bool
	// Cube is the side of the copper-wired block whose faces optical
	// circuit switches join (4 on v4 and v5p); links that cross a block's
	// face, and wraparound links, are Kind "ocs". 0: none.
	Cube int
	// Host is the chips of one host along each axis; every chip has a PCIe
	// link to its host.
	Host [3]int
	// Slices is how many such slices the data-centre network joins (1:
	// one slice, and no network).
	Slices int
	// Order is the axes (0 x, 1 y, 2 z) in the order chip ids run through
	// them, the first fastest: a training mesh, laid on ids innermost
	// first, puts its innermost axis on Order[0]. The zero value is x, y, z.
	Order [3]int
}

// order is Order, with the zero value read as x, y, z.
func (t Torus) order() [3]int {
	if t.Order == ([3]int{}) {
		return [3]int{0, 1, 2}
	}
	return t.Order
}

// Chips is the chip count of one slice.
func (t Torus) Chips() int { return t.Dims[0] * t.Dims[1] * t.Dims[2] }

// Coord is chip id's slice and position.
func (t Torus) Coord(id int) (slice int, c [3]int) {
	n := t.Chips()
	slice, id = id/n, id%n
	for _, a := range t.order() {
		c[a], id = id%t.Dims[a], id/t.Dims[a]
	}
	return slice, c
}

// ID is the chip at position c of slice s.
func (t Torus) ID(s int, c [3]int) int {
	o := t.order()
	return s*t.Chips() + c[o[0]] + t.Dims[o[0]]*(c[o[1]]+t.Dims[o[1]]*c[o[2]])
}

// HostOf is the host index (over all slices) of chip id, and the chip's
// index among the host's chips.
func (t Torus) HostOf(id int) (host, local int) {
	s, c := t.Coord(id)
	var hc, lc [3]int
	for i := range c {
		hc[i], lc[i] = c[i]/t.Host[i], c[i]%t.Host[i]
	}
	per := t.hostsPer()
	host = s*per[0]*per[1]*per[2] + hc[0] + per[0]*(hc[1]+per[1]*hc[2])
	return host, lc[0] + t.Host[0]*(lc[1]+t.Host[1]*lc[2])
}

func (t Torus) hostsPer() [3]int {
	var p [3]int
	for i := range p {
		p[i] = (t.Dims[i] + t.Host[i] - 1) / t.Host[i]
	}
	return p
}

// Hosts is the host count over all slices.
func (t Torus) Hosts() int {
	p := t.hostsPer()
	return max(t.Slices, 1) * p[0] * p[1] * p[2]
}

// Validate checks the shape.
func (t Torus) Validate() error {
	for i, n := range t.Dims {
		if n < 1 || t.Host[i] < 1 {
			return fmt.Errorf("torus: %v chips with hosts of %v; want at least 1 along each axis", t.Dims, t.Host)
		}
		if t.Wrap[i] && n < 3 {
			return fmt.Errorf("torus: axis %d of %d chips cannot wrap (a ring needs 3)", i, n)
		}
	}
	if t.Slices < 1 {
		return fmt.Errorf("torus: %d slices; want at least 1", t.Slices)
	}
	if o := t.order(); o[0]+o[1]+o[2] != 3 || o[0] == o[1] || o[1] == o[2] || o[0] == o[2] || min(o[0], o[1], o[2]) < 0 {
		return fmt.Errorf("torus: order %v; want a permutation of the axes 0, 1, 2", t.Order)
	}
	return nil
}

// TorusPorts are the links of a torus: its ICI cables, each chip's PCIe
// link to its host and each host's NIC on the data-centre network.
type TorusPorts struct {
	ICI, PCIe, DCN Port
}

// BuildTorus wires t: every chip to its neighbour along each axis (and the
// wraparound where Wrap says), then, with several slices, each chip to its
// host over PCIe and each host to one data-centre switch. GPUs forward
// (Topology.Forward) and each link is a port of its own (LinkPorts), as
// TPU chips route ICI traffic through each other and drive their links at
// once.
func BuildTorus(t Torus, p TorusPorts) (*Topology, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	tp := &Topology{Nodes: t.Hosts(), Forward: true, LinkPorts: true, Torus: &t}
	for id := 0; id < t.Slices*t.Chips(); id++ {
		h, l := t.HostOf(id)
		tp.addGPU(h, l)
	}
	for id := range tp.GPUs {
		for axis := 0; axis < 3; axis++ {
			if nb, kind, ok := t.next(id, axis); ok {
				tp.duplex(id, nb, p.ICI.Bandwidth, p.ICI.Latency, p.ICI.Latency, kind)
			}
		}
	}
	if t.Slices > 1 {
		hosts := make([]int, t.Hosts())
		for h := range hosts {
			hosts[h] = tp.addSwitch(fmt.Sprintf("host %d", h), KindHost, h)
		}
		dcn := tp.addSwitch("data-centre network", "spine", -1)
		for id, g := range tp.GPUs {
			tp.duplex(id, hosts[g.Node], p.PCIe.Bandwidth, p.PCIe.Latency, 0, "pcie")
		}
		for _, h := range hosts {
			tp.duplex(h, dcn, p.DCN.Bandwidth, p.DCN.Latency, 0, "dcn")
		}
	}
	return tp, nil
}

// KindHost is the Kind of a TPU host's switch vertex: chips reach the
// data-centre network through it, but it relays nothing from one of its
// chips to another (they talk over ICI).
const KindHost = "host"

// next is chip id's neighbour one step up axis: the next chip, or across
// the wraparound (shifted on a twisted axis), with the link's kind.
func (t Torus) next(id, axis int) (nb int, kind string, ok bool) {
	s, c := t.Coord(id)
	n := t.Dims[axis]
	if n < 2 {
		return 0, "", false
	}
	kind = "ici"
	c[axis]++
	if t.Cube > 0 && c[axis]%t.Cube == 0 {
		kind = "ocs"
	}
	if c[axis] == n {
		if !t.Wrap[axis] {
			return 0, "", false
		}
		c[axis], kind = 0, "ocs"
		if long := t.longest(); t.Twisted && t.Dims[axis] < t.Dims[long] {
			c[long] = (c[long] + t.Dims[long]/2) % t.Dims[long]
		}
	}
	return t.ID(s, c), kind, true
}

// longest is the index of the longest axis (the first of equals).
func (t Torus) longest() int {
	l := 0
	for i := 1; i < 3; i++ {
		if t.Dims[i] > t.Dims[l] {
			l = i
		}
	}
	return l
}

// RingWraps reports whether axis is a ring for the per-axis collectives:
// it wraps, and its wraparound is not twisted onto another ring.
func (t Torus) RingWraps(axis int) bool {
	return t.Wrap[axis] && !(t.Twisted && t.Dims[axis] < t.Dims[t.longest()])
}
