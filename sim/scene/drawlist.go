package scene

import "fmt"

// Color is an 8-bit RGBA colour, not premultiplied.
type Color struct{ R, G, B, A uint8 }

// Hex returns the colour as "#rrggbb" (alpha is written separately by encoders).
func (c Color) Hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Shape says which fields of an Item are meaningful.
type Shape uint8

// The shapes a draw list can hold.
const (
	// Rect fills (and optionally strokes) the box X, Y, W, H.
	Rect Shape = iota
	// Line strokes from (X, Y) to (X2, Y2) with width StrokeWidth.
	Line
	// Text writes Text with its baseline-left corner at (X, Y), Size pixels
	// high, in Fill; Anchor moves the anchor point to the middle or end.
	Text
)

// Anchor aligns text horizontally about its X.
type Anchor uint8

// Text anchors.
const (
	AnchorStart Anchor = iota
	AnchorMiddle
	AnchorEnd
)

// Item is one drawing primitive. Coordinates are in logical pixels with the
// origin top-left and y growing downwards.
type Item struct {
	// ID is stable across instants for the same thing (e.g. "gpu/2",
	// "chunk/0/5"), so backends and tests can follow an object over time.
	ID string
	// Shape selects which fields below apply.
	Shape Shape
	// X, Y is the top-left corner (Rect), the start point (Line) or the
	// anchor point on the baseline (Text).
	X, Y float64
	// W, H is the size of a Rect.
	W, H float64
	// X2, Y2 is the end point of a Line.
	X2, Y2 float64
	// Fill is the fill colour of a Rect and the colour of Text; zero alpha
	// means no fill.
	Fill Color
	// Stroke is the outline colour of a Rect or the colour of a Line; zero
	// alpha means no outline.
	Stroke Color
	// StrokeWidth is the outline or line width in pixels.
	StrokeWidth float64
	// Text is the string of a Text item.
	Text string
	// Size is the text height in pixels.
	Size float64
	// Anchor aligns a Text item about X.
	Anchor Anchor
	// Bold asks for a heavier weight where the backend has one.
	Bold bool
}

// DrawList is everything to draw for one instant, in painter's order (later
// items on top).
type DrawList struct {
	// Width and Height are the size of the canvas in logical pixels.
	Width, Height float64
	// Background fills the canvas before the items are drawn.
	Background Color
	// Items are drawn in order.
	Items []Item
}
