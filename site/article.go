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
	// Body is the rendered Markdown, without the page around it.
	Body template.HTML
}

// slugPattern keeps page names portable and URL-safe.
var slugPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// RenderArticle parses the front matter and renders the Markdown of the file
// called name (used for the slug and in error messages). Every problem is
// reported as "name:LINE: message", and all of them are returned at once:
// a ```sim block whose scenario does not parse, a bad front matter key, a
// missing title.
func RenderArticle(name string, src []byte) (Article, error) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	a := Article{Slug: strings.TrimSuffix(filepath.Base(name), ".md")}
	if !slugPattern.MatchString(a.Slug) || a.Slug == "index" {
		return a, fmt.Errorf("%s:1: file name must be lower-case letters, digits and dashes, not %q, and not \"index\"", name, a.Slug)
	}
	fm, body, bodyLine, err := ParseFrontMatter(src)
	if err != nil {
		return a, fmt.Errorf("%s:%w", name, err)
	}
	a.FrontMatter = fm
	var errs []error
	if fm.Title == "" {
		errs = append(errs, fmt.Errorf("%s:1: front matter: title is required", name))
	}
	html, renderErrs, err := renderMarkdown(name, bodyLine, body)
	if err != nil {
		return a, fmt.Errorf("%s: %w", name, err)
	}
	a.Body = template.HTML(html) // goldmark escapes text and omits raw HTML
	return a, errors.Join(append(errs, renderErrs...)...)
}

// renderMarkdown converts body, which starts at line firstLine of file,
// and returns the HTML, the problems found in ```sim blocks, and any error
// of goldmark itself.
func renderMarkdown(file string, firstLine int, body []byte) (string, []error, error) {
	code := &codeBlockRenderer{file: file, firstLine: firstLine}
	var buf bytes.Buffer
	if err := newMarkdown(code).Convert(body, &buf); err != nil {
		return "", nil, err
	}
	return buf.String(), code.errs, nil
}
