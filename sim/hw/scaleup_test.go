package hw

import (
	"testing"

	"paraplay/sim/units"
)

// TestScaleUpDomains holds each scale-up domain's preset to the figures
// its Source cites: how many GPUs share one NVLink or Infinity Fabric
// domain, and what each GPU's links carry per direction.
func TestScaleUpDomains(t *testing.T) {
	tests := []struct {
		gpu, link string
		perNode   int
		lineRate  units.Bandwidth // per GPU, one direction
		meshPeers int
		peerRate  units.Bandwidth
	}{
		// GB200 NVL72: 72 GPUs, NVLink 5 at 1.8 TB/s both ways per GPU.
		{"gb200", "nvlink5", 72, 900 * units.GBps, 0, 900 * units.GBps},
		// DGX/HGX B200: 8 GPUs, NVLink 5.
		{"b200", "nvlink5", 8, 900 * units.GBps, 0, 900 * units.GBps},
		// H800: NVLink at 400 GB/s both ways, 200 per direction.
		{"h800", "nvlink4-h800", 8, 200 * units.GBps, 0, 200 * units.GBps},
		// MI300X: 7 xGMI links of 128 GB/s both ways, one to each peer.
		{"mi300x", "infinity-fabric", 8, 448 * units.GBps, 7, 64 * units.GBps},
	}
	for _, tc := range tests {
		g, err := LookupGPU(tc.gpu)
		if err != nil {
			t.Fatal(err)
		}
		l, err := LookupLink(g.Link)
		if err != nil {
			t.Fatal(err)
		}
		if g.Link != tc.link || g.GPUsPerNode != tc.perNode {
			t.Errorf("%s: link %s, %d per node; want %s, %d", tc.gpu, g.Link, g.GPUsPerNode, tc.link, tc.perNode)
		}
		if l.LineRate != tc.lineRate || l.MeshPeers != tc.meshPeers || l.PeerRate() != tc.peerRate {
			t.Errorf("%s: line rate %v, %d mesh peers, %v per peer; want %v, %d, %v", tc.gpu, l.LineRate, l.MeshPeers, l.PeerRate(), tc.lineRate, tc.meshPeers, tc.peerRate)
		}
	}
}
