package cluster

import (
	"strings"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/units"
)

func TestBuildDefaults(t *testing.T) {
	b, err := Build(Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(b.Topology.GPUs); got != 8 {
		t.Errorf("default cluster has %d GPUs, want 8 (one DGX H100)", got)
	}
	nv, _ := hw.LookupLink("nvlink4")
	if b.Intra.Bandwidth != nv.Effective() || b.Intra.Latency != nv.Latency {
		t.Errorf("intra port %+v, want nvlink4's effective %v and α %v", b.Intra, nv.Effective(), nv.Latency)
	}
	if err := b.Topology.Validate(); err != nil {
		t.Error(err)
	}
}

func TestBuildMultiNode(t *testing.T) {
	b, err := Build(Spec{GPU: "a100-sxm-80gb", Nodes: 4, Inter: "ib-hdr"})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(b.Topology.GPUs); got != 32 {
		t.Errorf("%d GPUs, want 32", got)
	}
	hdr, _ := hw.LookupLink("ib-hdr")
	if b.Inter.Bandwidth != hdr.Effective() {
		t.Errorf("inter port %v, want %v", b.Inter.Bandwidth, hdr.Effective())
	}
	if !strings.Contains(b.Description, "4 nodes × 8 a100-sxm-80gb") {
		t.Errorf("description %q", b.Description)
	}
}

func TestBuildUniform(t *testing.T) {
	b, err := Build(Spec{PerNode: 16, Bandwidth: 100 * units.GBps, Latency: 5 * units.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Topology.GPUs) != 16 || b.Intra.Bandwidth != 100e9 || b.Intra.Latency != 5000 {
		t.Errorf("uniform build: %d GPUs, port %+v", len(b.Topology.GPUs), b.Intra)
	}
}

func TestBuildErrorsNameTheField(t *testing.T) {
	tests := []struct {
		spec Spec
		want string
	}{
		{Spec{GPU: "h900"}, "gpu:"},
		{Spec{Nodes: -1}, "nodes:"},
		{Spec{PerNode: 100}, "gpus-per-node:"},
		{Spec{Intra: "nvlink9"}, "link:"},
		{Spec{Nodes: 2, Inter: "carrier-pigeon"}, "inter:"},
		{Spec{Nodes: 2, Network: "mesh"}, "network:"},
		{Spec{Nodes: 8192, PerNode: 64}, "at most 65536"},
	}
	for _, tc := range tests {
		_, err := Build(tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Build(%+v) = %v, want an error containing %q", tc.spec, err, tc.want)
		}
	}
}

// TestBuildGB200Rack: a GB200 NVL72's 72 GPUs are one server on NVLink 5.
func TestBuildGB200Rack(t *testing.T) {
	b, err := Build(Spec{GPU: "gb200"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Spec.PerNode != 72 || len(b.Topology.GPUs) != 72 || b.Spec.Intra != "nvlink5" {
		t.Errorf("gb200 server: %d per node, %d GPUs, intra %s; want 72, 72, nvlink5", b.Spec.PerNode, len(b.Topology.GPUs), b.Spec.Intra)
	}
}

// TestBuildMI300XMesh: an MI300X node is a full mesh with no switch, each
// cable a seventh of the Infinity Fabric preset's effective rate, and a
// node larger than the mesh is refused naming gpus-per-node.
func TestBuildMI300XMesh(t *testing.T) {
	for _, nodes := range []int{1, 2} {
		b, err := Build(Spec{GPU: "mi300x", Nodes: nodes})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Topology.Validate(); err != nil {
			t.Error(err)
		}
		l, _ := hw.LookupLink("infinity-fabric")
		if got, want := b.Intra.Bandwidth, l.Effective()/7; got != want {
			t.Errorf("%d nodes: per-peer cable %v, want %v", nodes, got, want)
		}
		if !b.Topology.DirectPorts {
			t.Errorf("%d nodes: mesh topology without direct ports", nodes)
		}
		if _, ok := b.Topology.LinkBetween(0, 7); !ok {
			t.Errorf("%d nodes: GPU 0 and GPU 7 share no cable", nodes)
		}
		if !strings.Contains(b.Description, "mesh") {
			t.Errorf("description %q does not say mesh", b.Description)
		}
	}
	_, err := Build(Spec{GPU: "mi300x", PerNode: 9})
	if err == nil || !strings.Contains(err.Error(), "gpus-per-node") {
		t.Errorf("9 MI300X in one mesh: error %v, want one naming gpus-per-node", err)
	}
}

// TestCalibratedPorts holds a calibration's fitted links to the ports the
// cluster is built with, in place of the catalog's, and leaves the links it
// does not name alone.
func TestCalibratedPorts(t *testing.T) {
	cal := &hw.Calibration{Links: map[string]hw.LinkFit{"nvlink4": {Bandwidth: 150e9, Latency: 6 * units.Microsecond}}}
	b, err := Build(Spec{GPU: "h100-sxm", Nodes: 2, Calibration: cal})
	if err != nil {
		t.Fatal(err)
	}
	ndr, _ := hw.LookupLink("ib-ndr")
	if b.Intra.Bandwidth != 150e9 || b.Intra.Latency != 6*units.Microsecond || b.Inter.Bandwidth != ndr.Effective() || b.Inter.Latency != ndr.Latency {
		t.Errorf("intra %+v, inter %+v; want the fitted nvlink4 and the catalog's ib-ndr", b.Intra, b.Inter)
	}
}
