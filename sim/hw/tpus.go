package hw

import "paraplay/sim/units"

// KindICI is a TPU's inter-chip interconnect: a direct copper or optical
// cable from a chip to its neighbour in the torus, no switch between.
const KindICI LinkKind = "ici"

// Pod is how the chips of one TPU generation are wired: a 2D or 3D torus
// of ICI links (the accelerator preset's Link), its largest slice, where
// its wraparound links are, the hosts the chips hang off by PCIe and the
// data-centre network (DCN) between hosts. A scenario names a slice of it
// (cluster.topology) and how many slices the DCN joins (cluster.slices).
type Pod struct {
	// TPU is the accelerator preset's name (GPUs), e.g. "tpu-v5p".
	TPU string `json:"tpu"`
	// Dims is the torus's dimensions: 2 (v5e, v6e) or 3 (v4, v5p, TPU7x).
	Dims int `json:"dims"`
	// Max is the largest slice along each axis (1 on a 2D pod's third).
	Max [3]int `json:"max_shape"`
	// Chips is the pod's chip count, which bounds a slice's.
	Chips int `json:"chips"`
	// Cube is, on a 3D pod, the side of the block of chips joined by
	// copper whose faces the optical circuit switches (OCS) join to other
	// blocks: a slice has wraparound links only when each of its axes is
	// a multiple of Cube ("full cubes"). 0 on a 2D pod.
	Cube int `json:"cube,omitempty"`
	// Wrap is, on a 2D pod, the axis length at which that axis gets its
	// wraparound link (16: the full pod side). 0 on a 3D pod.
	Wrap int `json:"wrap,omitempty"`
	// Host is the shape of the chips one host holds, e.g. {2, 2, 1}.
	Host [3]int `json:"host_shape"`
	// PCIe is each chip's link to its host, per direction.
	PCIe units.Bandwidth `json:"pcie_bytes_per_s"`
	// DCN is each host's network egress (its NICs together), per direction.
	DCN units.Bandwidth `json:"dcn_bytes_per_s_per_host"`
	// Source cites Max, Chips, Cube or Wrap, Host, PCIe and DCN, with
	// what each was confirmed in.
	Source string `json:"source"`
}

// HostChips is the chips of one host.
func (p Pod) HostChips() int { return p.Host[0] * p.Host[1] * p.Host[2] }

// Twistable reports whether a slice of shape (each axis a multiple of the
// cube, sorted a ≤ b ≤ c) may be wired as a twisted torus: 2a = b = c or
// a = b, c = 2a, the shapes the Cloud TPU v4 documentation names.
func (p Pod) Twistable(shape [3]int) bool {
	a, b, c := sort3(shape)
	if p.Cube == 0 || a%p.Cube != 0 || b%p.Cube != 0 || c%p.Cube != 0 {
		return false
	}
	return (2*a == b && b == c) || (a == b && c == 2*a)
}

func sort3(s [3]int) (a, b, c int) {
	a, b, c = s[0], s[1], s[2]
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	return a, b, c
}

// Wraps says which axes of a slice of the given shape have wraparound
// links: on a 3D pod every axis of length > 1 when all three are multiples
// of the cube (the OCS closes each ring) and none otherwise; on a 2D pod an
// axis when its length is Wrap.
func (p Pod) Wraps(shape [3]int) [3]bool {
	var w [3]bool
	full := p.Cube > 0
	for i := 0; i < 3 && p.Cube > 0; i++ {
		full = full && shape[i]%p.Cube == 0
	}
	for i, n := range shape {
		w[i] = n > 2 && (full || (p.Wrap > 0 && n == p.Wrap))
	}
	return w
}

// DCN and PCIe latencies of a TPU host, and the ICI hop's.
const (
	ICIHop     = units.Microsecond
	DCNLatency = 10 * units.Microsecond
	PCIeHop    = units.Microsecond
)

// tpuEff is the basis of the TPUs' assumed training efficiency.
const tpuEff = "ASSUMPTION. Published end-to-end MFU on TPU v5e-256 runs 56–67% (google/maxtext, MaxText/configs/v5e README, 16B–128B models on one slice); 'How to Scale Your Model' (Austin et al. 2025) assumes 40–50%. 0.6 taken for compute alone; not measured on this generation unless it is v5e."

// LookupPod returns the pod of TPU preset name, and whether it has one.
func LookupPod(name string) (Pod, bool) {
	for _, p := range Pods() {
		if p.TPU == name {
			return p, true
		}
	}
	return Pod{}, false
}
