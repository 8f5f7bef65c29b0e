package collective

import (
	"testing"

	"paraplay/sim/units"
)

// TestTransferChannel checks the channel each message of a multi-channel
// schedule records (Transfer.Channel), against the layouts the
// constructors document: a ChannelRing message that leaves its node
// carries one channel's slice, from the GPU before that channel's entry,
// local (c−k−1) mod g on node k, to the next node's entry (the same rail
// but on the hop that closes the ring); a message inside a
// node that bundles several channels' slices says −1 and lists them in
// Ranges; an NCCLTree message belongs to the channel whose head, local
// GPU c, leads its chain, so it crosses nodes from and to local GPU c.
func TestTransferChannel(t *testing.T) {
	const nodes, g = 3, 4
	rankNode := func(r int) int { return r / g }
	t.Run("ring", func(t *testing.T) {
		sch := ChannelRing(OpAllReduce, nodes, g, 12*units.MiB, 2, g)
		seen := map[int8]bool{}
		for i, x := range sch.Transfers {
			seen[x.Channel] = true
			ranges := len(sch.Pieces(i))
			switch {
			case x.Channel < 0:
				if ranges < 2 {
					t.Errorf("transfer %d: channel −1 but %d ranges; want several", i, ranges)
				}
			case int(x.Channel) >= g || ranges != 1:
				t.Errorf("transfer %d: channel %d with %d ranges; want 0..%d and one range", i, x.Channel, ranges, g-1)
			case rankNode(x.Src) != rankNode(x.Dst):
				k, c := rankNode(x.Src), int(x.Channel)
				entry := ((c-(k+1)%nodes)%g + g) % g // the next node's entry
				if from := ((c-k-1)%g + g) % g; x.Src%g != from || x.Dst%g != entry {
					t.Errorf("transfer %d of channel %d leaves node %d from local %d to local %d; want %d to %d", i, c, k, x.Src%g, x.Dst%g, from, entry)
				}
			}
		}
		for c := int8(-1); c < g; c++ {
			if !seen[c] {
				t.Errorf("no message of channel %d", c)
			}
		}
	})
	t.Run("tree", func(t *testing.T) {
		sch := NCCLTree(nodes, g, 12*units.MiB, 2, g)
		seen := map[int8]bool{}
		for i, x := range sch.Transfers {
			seen[x.Channel] = true
			if c := int(x.Channel); c < 0 || c >= g {
				t.Errorf("transfer %d: channel %d; want 0..%d", i, c, g-1)
			} else if rankNode(x.Src) != rankNode(x.Dst) && (x.Src%g != c || x.Dst%g != c) {
				t.Errorf("transfer %d of channel %d crosses nodes from local %d to local %d; want its head %d", i, c, x.Src%g, x.Dst%g, c)
			}
		}
		if len(seen) != g {
			t.Errorf("messages of %d channels; want %d", len(seen), g)
		}
	})
	t.Run("one channel", func(t *testing.T) {
		for i, x := range Ring(8, units.MiB).Transfers {
			if x.Channel != 0 {
				t.Fatalf("transfer %d of a single ring: channel %d; want 0", i, x.Channel)
			}
		}
	})
}
