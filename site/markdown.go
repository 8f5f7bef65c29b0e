package site

import (
	"bytes"
	"fmt"

	"github.com/gohugoio/hugo-goldmark-extensions/passthrough"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// docState is what the parser and renderers learn about one Markdown file:
// where it is (for error messages), what it may refer to, and what it
// produced besides HTML (demos, math, citations, the table of contents).
type docState struct {
	file      string  // name used in error messages
	slug      string  // names the posters
	firstLine int     // line of the file at which the body starts
	source    []byte  // the body
	lib       Library // references and glossary
	errs      []error
	warnings  []string // "file:LINE: message", reported but not fatal

	demos []*demo
	math  []Math
	cited []Reference    // in order of first citation: number i+1
	cites map[string]int // key → number
	toc   []TOCEntry
}

// line returns the line of the file at byte offset off of the body.
func (d *docState) line(off int) int {
	off = min(max(off, 0), len(d.source))
	return d.firstLine + bytes.Count(d.source[:off], []byte("\n"))
}

func (d *docState) warnf(line int, format string, args ...any) {
	d.warnings = append(d.warnings, fmt.Sprintf("%s:%d: %s", d.file, line, fmt.Sprintf(format, args...)))
}

func (d *docState) errorf(line int, format string, args ...any) {
	d.errs = append(d.errs, fmt.Errorf("%s:%d: %s", d.file, line, fmt.Sprintf(format, args...)))
}

// newMarkdown is the one place goldmark is configured:
//   - GitHub-flavoured Markdown (tables, strikethrough, autolinks, task
//     lists), footnotes, and the typographer (curly quotes, dashes);
//   - automatic heading IDs, a "#" link on every heading, and a table of
//     contents collected from the h2/h3 headings;
//   - chroma highlighting with CSS classes;
//   - math: $…$ and $$…$$ kept intact by the passthrough extension (so the
//     typographer and emphasis never touch LaTeX) and rendered with KaTeX
//     at build time (see Math);
//   - citations [@key] from docs/references.yaml, numbered per article;
//   - the first use of each glossary term linked to glossary.html;
//   - ```sim blocks turned into demos with posters.
//
// Raw HTML stays disabled: goldmark's default, articles are Markdown only;
// rawHTMLWarner tells the author where some was dropped.
// A fresh instance per document keeps the per-file state in doc.
func newMarkdown(doc *docState) goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(
			extension.GFM,
			extension.Footnote,
			extension.Typographer,
			passthrough.New(passthrough.Config{
				InlineDelimiters: []passthrough.Delimiters{{Open: "$", Close: "$"}},
				BlockDelimiters:  []passthrough.Delimiters{{Open: "$$", Close: "$$"}},
			}),
		),
		goldmark.WithParserOptions(
			parser.WithAutoHeadingID(),
			// Before the link parser (200) so [@key] is never a link.
			parser.WithInlineParsers(util.Prioritized(citeParser{}, 150)),
			parser.WithASTTransformers(
				util.Prioritized(&glossaryLinker{doc: doc}, 900),
				util.Prioritized(&citeNumberer{doc: doc}, 910),
				util.Prioritized(&rawHTMLWarner{doc: doc}, 920),
			),
		),
		// goldmark's own HTML renderer has priority 1000 and passthrough's
		// 99/101; lower wins.
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(
			util.Prioritized(&codeBlockRenderer{doc: doc, highlight: highlighter()}, 100),
			util.Prioritized(headingRenderer{}, 100),
			util.Prioritized(&citeRenderer{doc: doc}, 100),
			util.Prioritized(&mathRenderer{doc: doc}, 50),
		)),
	)
}

// renderMarkdown parses and renders doc.source, filling doc with what the
// document produced besides HTML.
func renderMarkdown(doc *docState) (string, error) {
	md := newMarkdown(doc)
	root := md.Parser().Parse(text.NewReader(doc.source))
	doc.toc = tableOfContents(root, doc.source)
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, doc.source, root); err != nil {
		return "", err
	}
	return buf.String(), nil
}
