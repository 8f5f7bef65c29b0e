package site

import (
	"bytes"
	"fmt"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// rawHTMLWarner records a warning for every piece of raw HTML in an
// article. Articles are Markdown only and goldmark drops raw HTML (it
// would bypass the escaping and the Content-Security-Policy the pages
// rely on), so an author who writes <div> or <b> should hear that it
// vanished rather than find out from the page. HTML comments are left
// alone: dropping an author's note is what they are for.
type rawHTMLWarner struct{ doc *docState }

// Transform implements parser.ASTTransformer.
func (w *rawHTMLWarner) Transform(root *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var segs *text.Segments
		switch n := n.(type) {
		case *ast.HTMLBlock:
			if n.HTMLBlockType == ast.HTMLBlockType2 { // <!-- comment -->
				return ast.WalkSkipChildren, nil
			}
			segs = n.Lines()
		case *ast.RawHTML:
			segs = n.Segments
		default:
			return ast.WalkContinue, nil
		}
		if segs.Len() == 0 {
			return ast.WalkSkipChildren, nil
		}
		first := segs.At(0)
		value := first.Value(source)
		if bytes.HasPrefix(value, []byte("<!--")) {
			return ast.WalkSkipChildren, nil
		}
		w.doc.warnf(w.doc.line(first.Start), "raw HTML %s is dropped: articles are Markdown only (use Markdown, or a ```sim block for a demo)", quoteStart(value))
		return ast.WalkSkipChildren, nil
	})
}

// quoteStart quotes the first line of raw HTML, cut to 40 bytes, for a
// warning.
func quoteStart(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) > 40 {
		return fmt.Sprintf("%q…", b[:40])
	}
	return fmt.Sprintf("%q", b)
}
