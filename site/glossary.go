package site

import (
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// glossaryLinker links the first use of each glossary term in an article to
// its entry on glossary.html, with the definition as a tooltip. It looks
// only at running text: not in headings, links, code, citations or tables'
// header cells.
type glossaryLinker struct{ doc *docState }

// Transform implements parser.ASTTransformer.
func (g *glossaryLinker) Transform(root *ast.Document, reader text.Reader, _ parser.Context) {
	terms := g.doc.lib.Terms
	if len(terms) == 0 {
		return
	}
	pattern, byWord := termPattern(terms)
	linked := map[string]bool{}
	source := reader.Source()
	var texts []*ast.Text
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Heading, *ast.Link, *ast.AutoLink, *ast.CodeSpan, *ast.Image, *ast.FencedCodeBlock, *ast.CodeBlock, *citeNode, *extast.TableHeader, *extast.FootnoteLink:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			texts = append(texts, n.(*ast.Text))
		}
		return ast.WalkContinue, nil
	})
	for _, t := range texts {
		linkTerms(t, source, pattern, byWord, linked)
	}
}

// termPattern is one case-insensitive regexp of every term and spelling,
// longest first so "ring all-reduce" wins over "all-reduce".
func termPattern(terms []Term) (*regexp.Regexp, map[string]Term) {
	byWord := map[string]Term{}
	var words []string
	for _, t := range terms {
		for _, w := range append([]string{t.Term}, t.Also...) {
			byWord[strings.ToLower(w)] = t
			words = append(words, regexp.QuoteMeta(w))
		}
	}
	sort.Slice(words, func(i, j int) bool { return len(words[i]) > len(words[j]) })
	return regexp.MustCompile(`(?i)\b(?:` + strings.Join(words, "|") + `)\b`), byWord
}

// linkTerms splits text node t around the first unlinked term it contains,
// wraps the term in a link, and carries on with the rest.
func linkTerms(t *ast.Text, source []byte, pattern *regexp.Regexp, byWord map[string]Term, linked map[string]bool) {
	for t != nil {
		seg := t.Segment
		value := seg.Value(source)
		var match []int
		var term Term
		for _, m := range pattern.FindAllIndex(value, -1) {
			found := string(value[m[0]:m[1]])
			candidate := byWord[strings.ToLower(found)]
			if !caseMatches(candidate, found) {
				continue
			}
			if !linked[candidate.Term] {
				match, term = m, candidate
				break
			}
		}
		if match == nil {
			return
		}
		linked[term.Term] = true
		parent := t.Parent()
		before := ast.NewTextSegment(seg.WithStop(seg.Start + match[0]))
		word := ast.NewTextSegment(text.NewSegment(seg.Start+match[0], seg.Start+match[1]))
		after := ast.NewTextSegment(seg.WithStart(seg.Start + match[1]))
		after.SetSoftLineBreak(t.SoftLineBreak())
		after.SetHardLineBreak(t.HardLineBreak())
		link := ast.NewLink()
		link.Destination = []byte("glossary.html#" + term.ID())
		link.Title = []byte(term.Definition)
		link.SetAttributeString("class", []byte("term"))
		link.AppendChild(link, word)
		parent.InsertBefore(parent, t, before)
		parent.InsertBefore(parent, t, link)
		parent.ReplaceChild(parent, t, after)
		t = after
	}
}

// caseMatches says whether found may stand for t: terms spelled with
// capitals inside the word (ZeRO, MFU, FSDP) must match exactly, so that
// the English word "zero" is not taken for ZeRO; others match in any case.
func caseMatches(t Term, found string) bool {
	for _, w := range append([]string{t.Term}, t.Also...) {
		if !strings.EqualFold(w, found) {
			continue
		}
		if len(w) < 2 || strings.ToLower(w[1:]) == w[1:] {
			return true
		}
		if w == found {
			return true
		}
	}
	return false
}
