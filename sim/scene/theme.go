package scene

import "fmt"

// Theme is a colour scheme for the canvas.
type Theme string

// The themes. ThemeLight is the zero value.
const (
	ThemeLight Theme = ""
	ThemeDark  Theme = "dark"
)

func (t Theme) validate() error {
	if t != ThemeLight && t != ThemeDark && t != "light" {
		return fmt.Errorf("scene: theme %q; want light or dark", string(t))
	}
	return nil
}

// Presenter mode's scales (Options.Present): large enough to read from the
// back of a lecture hall on a 1080p projector.
const (
	PresentTextScale = 1.4
	PresentLineScale = 1.75
)

func (o Options) textScale() float64 {
	if o.Present {
		return PresentTextScale
	}
	return 1
}

// thickenLines widens every line and outline for presenter mode.
func thickenLines(dl DrawList) {
	for i := range dl.Items {
		if it := &dl.Items[i]; it.Shape == Line || it.Stroke.A != 0 {
			it.StrokeWidth *= PresentLineScale
		}
	}
}

// darkSwaps pairs each light-theme colour that sits on the background with
// its dark-theme replacement. Fills that carry meaning (GPU states, span
// kinds, chunks, the load ramp) keep their colour, and so does the text
// drawn on them, so both themes read the same way; only the dark tones
// among them, which would vanish on the dark background, become lighter
// shades of their hue.
var darkSwaps = [...][2]Color{
	{colBackground, {0x16, 0x19, 0x1e, 0xff}},
	{colText, {0xe6, 0xe8, 0xeb, 0xff}}, // also colHBMLimit
	{colMuted, {0xa6, 0xac, 0xb4, 0xff}},
	{colRowShade, {0x22, 0x26, 0x2d, 0xff}},
	{colLink, {0x5c, 0x63, 0x6e, 0xff}},
	{colAxis, {0x8c, 0x93, 0x9c, 0xff}},
	{colBoxEdge, {0xa0, 0xa6, 0xae, 0xff}},
	{colNodeFill, {0x23, 0x28, 0x31, 0xff}},
	{colNodeEdge, {0x4c, 0x55, 0x61, 0xff}},
	{colOtherPhase, {0xbb, 0xbb, 0xbb, 0xff}},
	{colPlayhead, {0xff, 0x5a, 0x5a, 0xff}},
	// The dark tones that mean "not computing" would vanish on the dark
	// background: lighter shades of the same hues, at least 3:1 against it
	// (TestDarkLegendContrast) and still under white labels.
	{colTPComm, {0x6e, 0x6e, 0x6e, 0xff}},
	{colCPComm, {0x3f, 0x9a, 0x92, 0xff}},
	{colEPComm, {0xa8, 0x64, 0x3a, 0xff}},
	{colPrefill, {0x44, 0x69, 0x9c, 0xff}},
	{colServer, {0x6a, 0x7f, 0x9c, 0xff}},    // also colWeightSync
	{colAllGather, {0xa5, 0x6c, 0xc8, 0xff}}, // also restarts, in faults and long runs
}

// darken swaps the light theme's background colours for the dark ones.
func darken(dl *DrawList) {
	swap := func(c Color) Color {
		for _, p := range darkSwaps {
			if c.R == p[0].R && c.G == p[0].G && c.B == p[0].B {
				p[1].A = c.A
				return p[1]
			}
		}
		return c
	}
	dl.Background = swap(dl.Background)
	for i := range dl.Items {
		it := &dl.Items[i]
		if it.Shape == Text && it.ID != "" && textOnFill(it.ID) {
			continue // text on a state fill keeps its contrast colour
		}
		it.Fill, it.Stroke = swap(it.Fill), swap(it.Stroke)
	}
}

// textOnFill reports the text items drawn on a coloured fill rather than
// on the background: GPU names and states, packet and span labels.
func textOnFill(id string) bool {
	for _, p := range [...]string{"gpu/", "xfer/", "strip/span/"} {
		if len(id) > len(p) && id[:len(p)] == p {
			return true
		}
	}
	return false
}
