package site

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// citeNode is a citation: [@key] or [@a; @b].
type citeNode struct {
	ast.BaseInline
	Keys []string
	Nums []int
}

var kindCite = ast.NewNodeKind("Citation")

// Kind implements ast.Node.
func (n *citeNode) Kind() ast.NodeKind { return kindCite }

// Dump implements ast.Node.
func (n *citeNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Keys": strings.Join(n.Keys, ";")}, nil)
}

// citePattern is a whole citation at the start of the input.
var citePattern = regexp.MustCompile(`^\[@[A-Za-z0-9_-]+(?:\s*;\s*@[A-Za-z0-9_-]+)*\]`)

// citeParser recognises [@key] and [@key1; @key2] before the link parser.
type citeParser struct{}

// Trigger implements parser.InlineParser.
func (citeParser) Trigger() []byte { return []byte{'['} }

// Parse implements parser.InlineParser.
func (citeParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	m := citePattern.Find(line)
	if m == nil {
		return nil
	}
	n := &citeNode{}
	n.SetPos(seg.Start) // for error messages
	for part := range strings.SplitSeq(string(m[1:len(m)-1]), ";") {
		n.Keys = append(n.Keys, strings.TrimPrefix(strings.TrimSpace(part), "@"))
	}
	block.Advance(len(m))
	return n
}

// citeNumberer numbers the cited references in order of first citation and
// reports unknown keys with their line.
type citeNumberer struct{ doc *docState }

// Transform implements parser.ASTTransformer.
func (c *citeNumberer) Transform(root *ast.Document, _ text.Reader, _ parser.Context) {
	d := c.doc
	d.cites = map[string]int{}
	_ = ast.Walk(root, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		n, ok := node.(*citeNode)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		for _, key := range n.Keys {
			ref, ok := d.lib.Refs[key]
			if !ok {
				d.errorf(d.line(n.Pos()), "citation: unknown reference key %q (add it to references.yaml)", key)
				continue
			}
			if ref.Excluded != "" {
				d.errorf(d.line(n.Pos()), "citation: %q is marked excluded in references.yaml (%s); drop the citation or the mark", key, ref.Excluded)
			}
			num, seen := d.cites[key]
			if !seen {
				d.cited = append(d.cited, ref)
				num = len(d.cited)
				d.cites[key] = num
			}
			n.Nums = append(n.Nums, num)
		}
		return ast.WalkContinue, nil
	})
}

// citeRenderer writes [1, 3], each number linking to the article's
// reference list, with the paper's authors, title and year as a tooltip.
type citeRenderer struct{ doc *docState }

// RegisterFuncs implements renderer.NodeRenderer.
func (r *citeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindCite, r.render)
}

func (r *citeRenderer) render(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*citeNode)
	_, _ = w.WriteString(`<span class="cite">[`)
	for i, num := range n.Nums {
		ref := r.doc.cited[num-1]
		if i > 0 {
			_, _ = w.WriteString(", ")
		}
		title := fmt.Sprintf("%s, “%s”, %d", ref.ShortAuthors(), ref.Title, ref.Year)
		fmt.Fprintf(w, `<a href="#ref-%s" title="%s">%s</a>`, html.EscapeString(ref.Key), html.EscapeString(title), strconv.Itoa(num))
	}
	_, _ = w.WriteString(`]</span>`)
	return ast.WalkContinue, nil
}
