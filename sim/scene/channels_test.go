package scene_test

import (
	"strings"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/scene"
	"paraplay/sim/taskgraph"
)

// TestChannelColours checks the picture of a collective on several
// channels, at 16 and 64 GPUs of 8-GPU nodes (one channel per NIC): at an
// instant of the ring, packets of at least two channels are in flight, every
// packet of one channel has that channel's legend swatch as its fill, and
// every packet that bundles several channels has the legend's swatch for
// them; a run of one channel keeps colouring packets by chunk, without the
// channels' legend.
func TestChannelColours(t *testing.T) {
	for _, nodes := range []int{2, 8} {
		tl := clusterRun(t, cluster.Spec{GPU: "a100-sxm-80gb", Nodes: nodes, PerNode: 8, Inter: "ib-hdr"}, "ring", taskgraph.Detailed)
		if got := tl.Collectives[0].Channels; got != 8 {
			t.Fatalf("%d nodes: the ring runs on %d channels; want 8 (one per NIC)", nodes, got)
		}
		dl := scene.Build(tl, at(tl, 0.3), scene.Options{Width: 1280, Height: 800})
		swatch := func(key string) scene.Item {
			it, ok := findItem(dl, "legend/"+key+"/swatch")
			if !ok {
				t.Fatalf("%d nodes: no legend swatch %q", nodes, key)
			}
			return it
		}
		channels := map[int8]bool{}
		for _, it := range dl.Items {
			k, ok := packetIndex(it.ID)
			if !ok {
				continue
			}
			x := tl.Transfers.At(k)
			key := "several-channels"
			if x.Channel >= 0 {
				key = "channel/" + itoa(int(x.Channel))
				channels[x.Channel] = true
			}
			if want := swatch(key).Fill; it.Fill != want {
				t.Errorf("%d nodes: packet %d of channel %d is filled %v; want its legend's %v", nodes, k, x.Channel, it.Fill, want)
			}
			hover := scene.Describe(tl, it.ID, at(tl, 0.3))
			if x.Channel >= 0 && !strings.Contains(hover, "channel "+itoa(int(x.Channel))) ||
				tl.GPUs[x.Src].Node != tl.GPUs[x.Dst].Node && !strings.Contains(hover, "leaves its node by rail ") {
				t.Errorf("%d nodes: packet %d (channel %d, GPU %d → %d) is described %q; want its channel and the rail it leaves by", nodes, k, x.Channel, x.Src, x.Dst, hover)
			}
		}
		if len(channels) < 2 {
			t.Errorf("%d nodes: packets of %d channels in flight; want at least 2", nodes, len(channels))
		}
	}
	one := clusterRun(t, cluster.Spec{GPU: "a100-sxm-80gb", Nodes: 2, PerNode: 8, Inter: "ib-hdr"}, "hierarchical", taskgraph.Detailed)
	dl := scene.Build(one, at(one, 0.3), scene.Options{Width: 1280, Height: 800})
	if _, ok := findItem(dl, "legend/channel/0/swatch"); ok {
		t.Errorf("a run of one channel shows the channels' legend")
	}
}

// packetIndex is k of a packet's ID "xfer/<k>", and false for any other
// item (its label included).
func packetIndex(id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, "xfer/")
	if !ok || strings.Contains(rest, "/") {
		return 0, false
	}
	k := 0
	for _, r := range rest {
		k = 10*k + int(r-'0')
	}
	return k, true
}

// TestInNetworkPicture checks the picture of the all-reduces in which a
// switch adds: while NVLS runs on one H100 node the node's switch is lit
// and says that it adds, and every GPU's link to it carries a marker each
// way; once the run is over the switch is dark again. CollNet on two nodes
// lights the rails' leaf switches and not the NVSwitches or the spine.
func TestInNetworkPicture(t *testing.T) {
	nvls := simulate(t, "nvls-8-h100.yaml", "")
	mid := scene.Build(nvls, at(nvls, 0.5), scene.Options{Width: 1280, Height: 800})
	end := scene.Build(nvls, nvls.End, scene.Options{Width: 1280, Height: 800})
	v := len(nvls.GPUs) // the node's switch
	lit, _ := findItem(mid, "switch/"+itoa(v))
	dark, _ := findItem(end, "switch/"+itoa(v))
	if lit.Fill == dark.Fill {
		t.Errorf("NVLS: the switch is %v while it adds and after; want it lit while it adds", lit.Fill)
	}
	if label, _ := findItem(mid, "switch/"+itoa(v)+"/label"); !strings.HasSuffix(label.Text, " adds") {
		t.Errorf("NVLS: the switch's label is %q; want it to say it adds", label.Text)
	}
	for _, l := range nvls.Links {
		dir := "up"
		if l.From == v {
			dir = "down"
		}
		if _, ok := findItem(mid, "innet/"+dir+"/"+itoa(l.ID)); !ok {
			t.Errorf("NVLS: no marker %s link %d (%d→%d)", dir, l.ID, l.From, l.To)
		}
	}
	collnet := simulate(t, "collnet-2x8-a100.yaml", "")
	dl := scene.Build(collnet, at(collnet, 0.5), scene.Options{Width: 1280, Height: 800})
	for j, sw := range collnet.Switches {
		label, _ := findItem(dl, "switch/"+itoa(len(collnet.GPUs)+j)+"/label")
		if adds, want := strings.HasSuffix(label.Text, " adds"), sw.Kind == "leaf"; adds != want {
			t.Errorf("CollNet: %s (%s) says %q; want adding %v", sw.Name, sw.Kind, label.Text, want)
		}
	}
}
