package textfont

import _ "embed"

// GoRegular is the subset of the Go Regular TrueType font, ready for
// golang.org/x/image/font/opentype.Parse.
//
//go:embed goregular-subset.ttf
var GoRegular []byte
