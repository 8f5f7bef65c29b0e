package scene

import (
	"image/color"
	"slices"
)

// transparentIndex is the palette entry a GIF frame uses for "unchanged".
const transparentIndex = 0

// paletteSteps are the mixes of every ParaPlay colour toward the
// background that the palette also holds: the anti-aliased edges of shapes
// and text land on them instead of on a far-off colour.
var paletteSteps = [...]float64{0.25, 0.5, 0.75}

// greySteps is the number of greys from black to white in the palette, for
// the edges of text and lines drawn over other fills.
const greySteps = 17

// Palette is the fixed GIF palette for frames on background bg: entry 0
// transparent, then the colours the scene draws with (colours.go), their
// mixes toward bg, and a grey ramp — at most 256 entries, no duplicates,
// in a fixed order.
func Palette(bg Color) color.Palette {
	bg.A = 255
	base := sceneColors()
	seen := map[Color]bool{}
	pal := color.Palette{color.NRGBA{}}
	add := func(c Color) {
		c.A = 255
		if !seen[c] && len(pal) < 256 {
			seen[c] = true
			pal = append(pal, color.NRGBA{c.R, c.G, c.B, 255})
		}
	}
	add(bg)
	for _, c := range base {
		add(c)
	}
	for i := range greySteps {
		v := uint8(min(255, i*256/(greySteps-1)))
		add(Color{v, v, v, 255})
	}
	for _, f := range paletteSteps {
		for _, c := range base {
			add(mix(c, bg, f))
		}
	}
	return pal
}

// sceneColors lists every fixed colour Build draws with, in a fixed order.
func sceneColors() []Color {
	cs := []Color{colBackground, colText, colMuted, colDarkText, colWhite, colLink, colRowShade,
		colAxis, colPlayhead, colBoxEdge, colReduceScatter, colAllGather, colOtherPhase,
		colNodeFill, colNodeEdge, colSwitch, colOOM, colNearOOM, colHBMLimit}
	for _, s := range stateStyle {
		cs = append(cs, s.fill)
	}
	cs = append(cs, chunkPalette[:]...)
	for _, k := range legendKinds {
		c, _ := kindColor(k)
		cs = append(cs, c, spanColor(k, 1))
	}
	for _, k := range rlhfKinds {
		c, _ := rlhfColor(k)
		cs = append(cs, c)
	}
	cs = append(cs, colQueueSlot)
	for _, k := range legendTraffic {
		cs = append(cs, trafficColor(k))
	}
	cs = append(cs, loadRamp[:]...)
	for i := range 8 { // the link-load ramp between its stops
		cs = append(cs, loadColor((float64(i)+0.5)/8))
	}
	cs = append(cs, memColors[:]...)
	cs = append(cs, colImbalance, colIntraStage, colInterStage) // a serving run's bubbles
	// Failures and asynchronous training: the translucent ones as they
	// land on the background.
	cs = append(cs, colClient)
	for _, c := range [...]Color{colLagOK, colLagAtLimit, colLagUnbounded, colServer, colFailed, colCross,
		colHatch, colHung, colRestarting, colCheckpoint, colDropped, colDetOK, colDetNaive, colDetFlag} {
		cs = append(cs, mix(colBackground, c, float64(c.A)/255))
	}
	cs = append(cs, darkColors()...)
	return slices.Clip(cs)
}

// darkColors are the colours the dark theme swaps in (theme.go).
func darkColors() []Color {
	var cs []Color
	for _, p := range darkSwaps {
		cs = append(cs, p[1])
	}
	return cs
}

// paletteIndex maps colours to their nearest palette entry (by squared
// distance in RGB, weighted as the eye weighs the channels), remembering
// answers in a small direct-mapped cache: a frame holds few distinct
// colours.
type paletteIndex struct {
	pal   []Color
	keys  []uint32
	vals  []uint8
	valid []bool
}

const lutBits = 14

func newPaletteIndex(p color.Palette) *paletteIndex {
	x := &paletteIndex{keys: make([]uint32, 1<<lutBits), vals: make([]uint8, 1<<lutBits), valid: make([]bool, 1<<lutBits)}
	for _, c := range p {
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		x.pal = append(x.pal, Color{n.R, n.G, n.B, n.A})
	}
	return x
}

func (x *paletteIndex) index(r, g, b uint8) uint8 {
	key := uint32(r)<<16 | uint32(g)<<8 | uint32(b)
	slot := (key ^ key>>lutBits ^ key>>(2*lutBits)) & (1<<lutBits - 1)
	if x.valid[slot] && x.keys[slot] == key {
		return x.vals[slot]
	}
	best, bestD := 0, int(^uint(0)>>1)
	for i, c := range x.pal {
		if c.A == 0 { // never map a colour to transparent
			continue
		}
		dr, dg, db := int(r)-int(c.R), int(g)-int(c.G), int(b)-int(c.B)
		d := 3*dr*dr + 4*dg*dg + 2*db*db
		if d < bestD {
			best, bestD = i, d
		}
	}
	x.keys[slot], x.vals[slot], x.valid[slot] = key, uint8(best), true
	return uint8(best)
}
