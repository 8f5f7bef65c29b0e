package scene

import (
	"slices"

	"paraplay/sim/timeline"
)

// channelPalette colours the channels of a collective that runs on
// several (NCCL's parallel rings or trees; Transfer.Channel), channel c
// by c mod len: Tableau 10's hues, made to stay apart as categories, with
// a light lime for its green (the green of a GPU that sends, under the
// packets), all of them colours the scene already draws with (the GIF
// palette is full).
var channelPalette = [...]Color{
	{0x4e, 0x79, 0xa7, 0xff}, // blue, a forward pass's
	{0xf2, 0x8e, 0x2b, 0xff}, // orange, a backward pass's
	{0xe1, 0x57, 0x59, 0xff}, // red, chunkPalette's
	{0x76, 0xb7, 0xb2, 0xff}, // teal, chunkPalette's
	{0xbc, 0xe0, 0x8a, 0xff}, // lime, chunkPalette's
	{0xed, 0xc9, 0x48, 0xff}, // yellow, chunkPalette's
	{0xb0, 0x7a, 0xa1, 0xff}, // purple, the optimizer's
	{0xff, 0x9d, 0xa7, 0xff}, // pink, chunkPalette's
}

// colSeveralChannels fills a message that carries several channels'
// slices at once (collective.ChannelRing's hops inside a node).
var colSeveralChannels = colWhite

// legendSeveral is the legend key of the bundles of several channels.
const legendSeveral = "several-channels"

// channelColor is the fill of channel c's messages; c < 0 (several
// channels in one message) is colSeveralChannels.
func channelColor(c int8) Color {
	if c < 0 {
		return colSeveralChannels
	}
	return channelPalette[int(c)%len(channelPalette)]
}

// channelsOf is the channel count of the collective x belongs to: more
// than one when the picture colours x by its channel.
func channelsOf(tl *timeline.Timeline, x *timeline.Transfer) int {
	if c := x.Collective; c >= 0 && c < len(tl.Collectives) {
		return tl.Collectives[c].Channels
	}
	return 0
}

// runChannels is the most channels any collective of tl runs on, and
// whether some message carries several channels' slices at once.
func runChannels(tl *timeline.Timeline) (channels int, several bool) {
	for i := range tl.Collectives {
		channels = max(channels, tl.Collectives[i].Channels)
	}
	if channels > 1 {
		for i := range tl.Transfers.Len() {
			if tl.Transfers.At(i).Channel < 0 {
				return channels, true
			}
		}
	}
	return channels, false
}

// channelEntries are the legend of a collective on several channels: the
// states a lone collective's GPUs take (compute too when the run has
// spans), a swatch per channel ("channel 0", "1", …, at most
// len(channelPalette); more channels repeat the colours), the bundles of
// several channels, and the phases' outlines, named short.
func channelEntries(f *Frames, channels int, several bool) []legendEntry {
	first := 0
	if len(f.tl.Spans) == 0 {
		first = 2 // no forward or backward in a lone collective
	}
	k := len(channelPalette)
	out := append(slices.Clone(legendEntries[first:5]), channelLegend[:min(channels, k)]...)
	if several {
		out = append(out, channelLegend[k])
	}
	return append(out, channelPhases[:]...)
}

// channelLegend are the channels' swatches, then the bundles'.
var channelLegend = [...]legendEntry{
	{"channel/0", "channel 0", channelPalette[0], Color{}}, {"channel/1", "1", channelPalette[1], Color{}},
	{"channel/2", "2", channelPalette[2], Color{}}, {"channel/3", "3", channelPalette[3], Color{}},
	{"channel/4", "4", channelPalette[4], Color{}}, {"channel/5", "5", channelPalette[5], Color{}},
	{"channel/6", "6", channelPalette[6], Color{}}, {"channel/7", "7", channelPalette[7], Color{}},
	{legendSeveral, "several channels", colSeveralChannels, colOtherPhase},
}

// channelPhases are the phases' outlines, named short.
var channelPhases = [...]legendEntry{
	{"reduce-scatter", "reduce-scatter", colWhite, colReduceScatter},
	{"all-gather", "all-gather", colWhite, colAllGather},
}
