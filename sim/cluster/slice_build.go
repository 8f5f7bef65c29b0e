package cluster

import (
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/topo"
)

// BuildSlice wires the slice: chips on their torus of the preset's ICI
// link, and with several slices each chip's PCIe link to its host and the
// hosts' NICs on one data-centre switch.
func BuildSlice(s Slice) (*Built, error) {
	pod, err := s.Check()
	if err != nil {
		return nil, err
	}
	gpu, _ := hw.LookupGPU(s.TPU)
	ici, err := hw.LookupLink(gpu.Link)
	if err != nil {
		return nil, fmt.Errorf("link: %w", err)
	}
	t := s.Torus(pod)
	ports := topo.TorusPorts{
		ICI:  topo.Port{Bandwidth: ici.Effective(), Latency: ici.Latency, Kind: "ici"},
		PCIe: topo.Port{Bandwidth: pod.PCIe, Latency: hw.PCIeHop, Kind: "pcie"},
		DCN:  topo.Port{Bandwidth: pod.DCN, Latency: hw.DCNLatency, Kind: "dcn"},
	}
	tp, err := topo.BuildTorus(t, ports)
	if err != nil {
		return nil, err
	}
	b := &Built{Topology: tp, Intra: ports.ICI, Inter: ports.DCN,
		Spec: Spec{GPU: s.TPU, Nodes: t.Hosts(), PerNode: pod.HostChips(), Intra: gpu.Link, Inter: "dcn"}}
	b.Description = describeSlice(s, t, ici)
	return b, nil
}

// describeSlice says in one line what was built: "tpu-v5p 4x4x8 (128
// chips, wraparound x y z), ici-v5p 90 GB/s per link α 1µs".
func describeSlice(s Slice, t topo.Torus, ici hw.Link) string {
	wraps := ""
	for i, w := range t.Wrap {
		if t.RingWraps(i) && w {
			wraps += " " + string("xyz"[i])
		}
	}
	if wraps == "" {
		wraps = " none"
	}
	d := fmt.Sprintf("%s %s (%d chips, wraparound%s", s.TPU, FormatShape(s.Shape), t.Chips(), wraps)
	if s.Twisted {
		d += ", twisted"
	}
	d += fmt.Sprintf("), %s %.4g GB/s per link α %v", ici.Name, float64(ici.Effective())/1e9, ici.Latency)
	if s.Slices > 1 {
		pod, _ := hw.LookupPod(s.TPU)
		d += fmt.Sprintf("; %d slices over DCN %.4g GB/s per host of %d", s.Slices, float64(pod.DCN)/1e9, pod.HostChips())
	}
	return d
}
