package site

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// newMarkdown is the one place goldmark is configured: GitHub-flavoured
// Markdown (tables, strikethrough, autolinks, task lists), automatic heading
// IDs and a "#" anchor link on every heading, raw HTML left out (articles are
// Markdown, not HTML), and the code block renderer that turns ```sim blocks
// into demos. The typographer stays off: quotes and dashes are written as
// the author typed them, and LaTeX between $…$ is not touched.
//
// A fresh instance per document is cheap and keeps the per-file state of
// the code block renderer (file name, errors) out of shared values.
func newMarkdown(code *codeBlockRenderer) goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		// goldmark's own HTML renderer has priority 1000; lower wins.
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(
			util.Prioritized(code, 100),
			util.Prioritized(headingRenderer{}, 100),
		)),
	)
}
