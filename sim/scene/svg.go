package scene

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteSVG writes dl as a standalone SVG document. The output is
// deterministic: numbers are printed with at most two decimals, attributes
// in a fixed order, one element per line. Each element carries its item's ID
// in a data-id attribute. WriteSVG writes nothing and returns an error if a
// coordinate or size is not finite.
func WriteSVG(w io.Writer, dl DrawList) error {
	if err := checkFinite(dl); err != nil {
		return err
	}
	e := svgWriter{w: bufio.NewWriter(w)}
	e.s(`<svg xmlns="http://www.w3.org/2000/svg" width="`)
	e.num(dl.Width)
	e.s(`" height="`)
	e.num(dl.Height)
	e.s(`" viewBox="0 0 `)
	e.num(dl.Width)
	e.s(" ")
	e.num(dl.Height)
	e.s("\">\n")
	e.s(`<rect width="100%" height="100%"`)
	e.paint("fill", dl.Background)
	e.s("/>\n")
	for i := range dl.Items {
		e.item(&dl.Items[i])
	}
	e.s("</svg>\n")
	return e.w.Flush()
}

func checkFinite(dl DrawList) error {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	if bad(dl.Width) || bad(dl.Height) {
		return fmt.Errorf("scene: canvas size %v×%v is not finite", dl.Width, dl.Height)
	}
	for i := range dl.Items {
		it := &dl.Items[i]
		for _, v := range [...]float64{it.X, it.Y, it.W, it.H, it.X2, it.Y2, it.StrokeWidth, it.Size} {
			if bad(v) {
				return fmt.Errorf("scene: item %d (%q) has a non-finite number", i, it.ID)
			}
		}
	}
	return nil
}

// svgWriter writes through a bufio.Writer, which keeps the first error and
// reports it from Flush, so the element writers need no error plumbing.
type svgWriter struct{ w *bufio.Writer }

func (e svgWriter) s(s string) { e.w.WriteString(s) }

// num writes v with two decimals, trailing zeros trimmed and no "-0".
func (e svgWriter) num(v float64) { e.s(formatNum(v, 2)) }

func formatNum(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

func (e svgWriter) attr(name string, v float64) {
	e.s(" " + name + `="`)
	e.num(v)
	e.s(`"`)
}

// escaped writes s as XML character data, as encoding/xml's EscapeText
// does (the same entities; invalid UTF-8 and characters XML forbids become
// U+FFFD), without linking encoding/xml into the wasm for one function.
func (e svgWriter) escaped(s string) {
	last := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == '"':
			esc = "&#34;"
		case r == '\'':
			esc = "&#39;"
		case r == '&':
			esc = "&amp;"
		case r == '<':
			esc = "&lt;"
		case r == '>':
			esc = "&gt;"
		case r == '\t':
			esc = "&#x9;"
		case r == '\n':
			esc = "&#xA;"
		case r == '\r':
			esc = "&#xD;"
		case !xmlChar(r) || (r == utf8.RuneError && w == 1):
			esc = "\uFFFD"
		default:
			i += w
			continue
		}
		e.s(s[last:i])
		e.s(esc)
		i += w
		last = i
	}
	e.s(s[last:])
}

// xmlChar reports whether r is in XML 1.0's Char production.
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// paint writes a fill or stroke colour, "none" for zero alpha, and an
// opacity when the colour is translucent.
func (e svgWriter) paint(name string, c Color) {
	if c.A == 0 {
		e.s(" " + name + `="none"`)
		return
	}
	e.s(" " + name + `="` + c.Hex() + `"`)
	if c.A < 255 {
		e.s(" " + name + `-opacity="` + formatNum(float64(c.A)/255, 3) + `"`)
	}
}

func (e svgWriter) item(it *Item) {
	switch it.Shape {
	case Rect:
		e.rect(it)
	case Line:
		e.line(it)
	case Text:
		e.text(it)
	}
}

func (e svgWriter) open(tag, id string) {
	e.s("<" + tag + ` data-id="`)
	e.escaped(id)
	e.s(`"`)
}

func (e svgWriter) rect(it *Item) {
	x, y, w, h := it.X, it.Y, it.W, it.H
	if w < 0 { // SVG rejects negative sizes; draw the same box.
		x, w = x+w, -w
	}
	if h < 0 {
		y, h = y+h, -h
	}
	e.open("rect", it.ID)
	e.attr("x", x)
	e.attr("y", y)
	e.attr("width", w)
	e.attr("height", h)
	e.paint("fill", it.Fill)
	if it.Stroke.A != 0 && it.StrokeWidth > 0 {
		e.paint("stroke", it.Stroke)
		e.attr("stroke-width", it.StrokeWidth)
	}
	e.s("/>\n")
}

func (e svgWriter) line(it *Item) {
	e.open("line", it.ID)
	e.attr("x1", it.X)
	e.attr("y1", it.Y)
	e.attr("x2", it.X2)
	e.attr("y2", it.Y2)
	e.paint("stroke", it.Stroke)
	e.attr("stroke-width", it.StrokeWidth)
	e.s(` stroke-linecap="round"/>` + "\n")
}

func (e svgWriter) text(it *Item) {
	e.open("text", it.ID)
	e.attr("x", it.X)
	e.attr("y", it.Y)
	e.attr("font-size", it.Size)
	e.s(` font-family="system-ui,sans-serif"`)
	e.paint("fill", it.Fill)
	switch it.Anchor {
	case AnchorMiddle:
		e.s(` text-anchor="middle"`)
	case AnchorEnd:
		e.s(` text-anchor="end"`)
	}
	if it.Bold {
		e.s(` font-weight="bold"`)
	}
	e.s(">")
	e.escaped(it.Text)
	e.s("</text>\n")
}
