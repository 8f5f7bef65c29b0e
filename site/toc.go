package site

import (
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// TOCEntry is one heading of an article's table of contents.
type TOCEntry struct {
	// Level is 2 or 3.
	Level int
	// ID is the heading's anchor.
	ID string
	// Text is the heading as plain text.
	Text string
}

// tableOfContents lists the h2 and h3 headings of root with their IDs.
func tableOfContents(root ast.Node, source []byte) []TOCEntry {
	var toc []TOCEntry
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level < 2 || h.Level > 3 {
			continue
		}
		id, _ := h.AttributeString("id")
		idBytes, _ := id.([]byte)
		toc = append(toc, TOCEntry{Level: h.Level, ID: string(idBytes), Text: plainText(h, source)})
	}
	return toc
}

// plainText concatenates the text under n (what a reader sees, without
// markup; math is shown as written).
func plainText(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(source))
			if c.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			if c.IsCode() {
				// The typographer's entities (&rsquo;, &ndash;) are markup:
				// the TOC holds text, escaped once by its template.
				b.WriteString(html.UnescapeString(string(c.Value)))
			} else {
				b.Write(c.Value)
			}
		default:
			if t, ok := c.(interface{ Text([]byte) []byte }); ok && c.Type() == ast.TypeInline && c.FirstChild() == nil {
				b.Write(t.Text(source))
			}
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}
