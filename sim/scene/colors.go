package scene

// The palette. These are read-only: Build copies them into items.
var (
	colBackground = Color{0xff, 0xff, 0xff, 0xff}
	colText       = Color{0x22, 0x22, 0x22, 0xff}
	colMuted      = Color{0x66, 0x66, 0x66, 0xff}
	colDarkText   = Color{0x1a, 0x1a, 0x1a, 0xff}
	colWhite      = Color{0xff, 0xff, 0xff, 0xff}
	colLink       = Color{0xb4, 0xb4, 0xb4, 0xff}
	colRowShade   = Color{0xf3, 0xf3, 0xf3, 0xff}
	colAxis       = Color{0x88, 0x88, 0x88, 0xff}
	colPlayhead   = Color{0xd6, 0x27, 0x28, 0xff}
	colBoxEdge    = Color{0x55, 0x55, 0x55, 0xff}

	// Border of a chunk square by the phase of its collective.
	colReduceScatter = Color{0x2e, 0x7d, 0x32, 0xff}
	colAllGather     = Color{0x7b, 0x3f, 0xa0, 0xff}
	colOtherPhase    = Color{0x44, 0x44, 0x44, 0xff}
)

// stateStyle is the fill of a GPU in a state and the text colour that reads
// best on it (the higher WCAG contrast of white and near-black).
var stateStyle = [...]struct{ fill, text Color }{
	Idle:          {Color{0xd0, 0xd0, 0xd0, 0xff}, colDarkText},
	Forward:       {Color{0x4e, 0x79, 0xa7, 0xff}, colWhite},
	Backward:      {Color{0xf2, 0x8e, 0x2b, 0xff}, colDarkText},
	Communicating: {Color{0x59, 0xa1, 0x4f, 0xff}, colDarkText},
	Done:          {Color{0x9a, 0x9a, 0x9a, 0xff}, colDarkText},
}

func (s State) fill() Color {
	if int(s) < len(stateStyle) {
		return stateStyle[s].fill
	}
	return stateStyle[Idle].fill
}

func (s State) textColor() Color {
	if int(s) < len(stateStyle) {
		return stateStyle[s].text
	}
	return colDarkText
}

// chunkPalette colours chunk c by c mod len: light enough for dark text, and
// none of them the green of an active link.
var chunkPalette = [...]Color{
	{0xe1, 0x57, 0x59, 0xff}, // red
	{0xed, 0xc9, 0x48, 0xff}, // yellow
	{0x76, 0xb7, 0xb2, 0xff}, // teal
	{0xff, 0x9d, 0xa7, 0xff}, // pink
	{0xa0, 0xcb, 0xe8, 0xff}, // sky
	{0xd4, 0xa3, 0x73, 0xff}, // tan
	{0xc9, 0xb3, 0xe6, 0xff}, // lavender
	{0xbc, 0xe0, 0x8a, 0xff}, // lime
}

func chunkColor(c int) Color {
	if c < 0 {
		c = -c
	}
	return chunkPalette[c%len(chunkPalette)]
}

func phaseColor(phase string) Color {
	switch phase {
	case "reduce-scatter":
		return colReduceScatter
	case "all-gather":
		return colAllGather
	}
	return colOtherPhase
}
