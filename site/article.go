package site

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"path/filepath"
	"regexp"
	"strings"
)

// Article is one Markdown file rendered to HTML.
type Article struct {
	FrontMatter
	// Slug names the output page, <Slug>.html; it is the file name without
	// its .md extension.
	Slug string
	// Body is the rendered Markdown, without the page around it. Math is
	// still a placeholder (<!--math:N-->) until Build typesets it.
	Body template.HTML
	// TOC lists the h2 and h3 headings.
	TOC []TOCEntry
	// Cited are the references in citation order: [n] is Cited[n-1].
	Cited []Reference
	// IdeasFrom are the references of the front matter's ideas key.
	IdeasFrom []Reference
	// Math are the formulas of Body, by placeholder number.
	Math []Math
	// Posters are the demos' posters, to be written beside the page.
	Posters []Poster
	// Prev and Next are the neighbouring articles on the index, set by Build.
	Prev, Next *Article
	// Warnings are problems that do not fail the build, each
	// "file:LINE: message": raw HTML that was dropped.
	Warnings []string
	// demos are the page's demos, run: their captions' checks are tested.
	demos []*demo
}

// slugPattern keeps page names portable and URL-safe.
var slugPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// reserved are the pages Build writes itself.
var reserved = map[string]bool{"index": true, "references": true, "glossary": true, "playground": true, "play": true}

// RenderArticle parses the front matter and renders the Markdown of the file
// called name (used for the slug and in error messages), resolving
// citations and glossary terms against lib. Every problem is reported as
// "name:LINE: message", and all of them are returned at once: a ```sim block
// whose scenario does not parse, an unknown citation key, a bad front matter
// key, a missing title.
func RenderArticle(name string, src []byte, lib Library) (Article, error) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	a := Article{Slug: strings.TrimSuffix(filepath.Base(name), ".md")}
	if !slugPattern.MatchString(a.Slug) || reserved[a.Slug] {
		return a, fmt.Errorf("%s:1: file name must be lower-case letters, digits and dashes, not %q, and not one of the site's own pages (index, references, glossary, playground, play)", name, a.Slug)
	}
	fm, body, bodyLine, err := ParseFrontMatter(src)
	if err != nil {
		return a, fmt.Errorf("%s:%w", name, err)
	}
	a.FrontMatter = fm
	doc := &docState{file: name, slug: a.Slug, firstLine: bodyLine, source: body, lib: lib}
	if fm.Title == "" {
		doc.errorf(1, "front matter: title is required")
	}
	for _, key := range fm.Ideas {
		r, ok := lib.Refs[key]
		if !ok {
			doc.errorf(1, "front matter: ideas: unknown reference key %q (add it to references.yaml)", key)
			continue
		}
		a.IdeasFrom = append(a.IdeasFrom, r)
	}
	html, err := renderMarkdown(doc)
	if err != nil {
		return a, fmt.Errorf("%s: %w", name, err)
	}
	a.Body = template.HTML(html) // goldmark escapes text and omits raw HTML
	a.TOC, a.Cited, a.Math = doc.toc, doc.cited, doc.math
	for _, d := range doc.demos {
		if d.poster.Path != "" { // a static demo has none (view.static)
			a.Posters = append(a.Posters, d.poster)
		}
	}
	a.demos = doc.demos
	a.Warnings = doc.warnings
	return a, errors.Join(doc.errs...)
}
