package site

import (
	"fmt"
	"html"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// headingRenderer writes headings with their automatic ID and a "#" link
// to themselves, so a reader (or a lecturer's slide) can link to a section.
type headingRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (headingRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHeading, renderHeading)
}

func renderHeading(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	id, _ := n.AttributeString("id")
	idBytes, _ := id.([]byte)
	anchor := html.EscapeString(string(idBytes))
	if entering {
		if anchor == "" {
			fmt.Fprintf(w, "<h%d>", n.Level)
		} else {
			fmt.Fprintf(w, `<h%d id="%s">`, n.Level, anchor)
		}
		return ast.WalkContinue, nil
	}
	if anchor != "" {
		fmt.Fprintf(w, ` <a class="anchor" href="#%s" aria-label="Link to this section">#</a>`, anchor)
	}
	fmt.Fprintf(w, "</h%d>\n", n.Level)
	return ast.WalkContinue, nil
}
