package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strings"
)

// inlineStyles turns the style attributes KaTeX writes (style="height:
// 0.6944em;", about 200 distinct ones over the site) into classes of one
// generated stylesheet, so that pages can keep the Content-Security-Policy
// style-src 'self' without 'unsafe-inline'. A class is named after a hash
// of its declarations, so the names do not depend on the order pages are
// built in; every declaration is !important because the attribute it
// replaces beat the class rules of katex.min.css, whatever their
// specificity.
type inlineStyles struct {
	byDecl map[string]string // declarations → class
	byName map[string]string // class → declarations, to catch a collision
}

func newInlineStyles() *inlineStyles {
	return &inlineStyles{byDecl: map[string]string{}, byName: map[string]string{}}
}

var (
	styledTag  = regexp.MustCompile(`<[a-zA-Z][^<>]*\sstyle="[^"]*"[^<>]*>`)
	styleAttr  = regexp.MustCompile(`\sstyle="([^"]*)"`)
	classAttr  = regexp.MustCompile(`\sclass="([^"]*)"`)
	unsafeDecl = regexp.MustCompile(`[{}<>\\@]|/\*`)
)

// rewrite replaces every style attribute of fragment with a class.
func (s *inlineStyles) rewrite(fragment string) (string, error) {
	var err error
	out := styledTag.ReplaceAllStringFunc(fragment, func(tag string) string {
		decl := strings.TrimSpace(html.UnescapeString(styleAttr.FindStringSubmatch(tag)[1]))
		tag = styleAttr.ReplaceAllString(tag, "")
		if decl == "" {
			return tag
		}
		class, e := s.class(decl)
		if e != nil {
			err = e
			return tag
		}
		if m := classAttr.FindStringSubmatchIndex(tag); m != nil {
			return tag[:m[3]] + " " + class + tag[m[3]:]
		}
		i := strings.IndexAny(tag, " \t\n/>")
		return tag[:i] + ` class="` + class + `"` + tag[i:]
	})
	return out, err
}

// class returns the class that stands for decl, making it if needed.
func (s *inlineStyles) class(decl string) (string, error) {
	if c, ok := s.byDecl[decl]; ok {
		return c, nil
	}
	if unsafeDecl.MatchString(decl) {
		return "", fmt.Errorf("math: style %q cannot become a CSS class", decl)
	}
	sum := sha256.Sum256([]byte(decl))
	c := "ks-" + hex.EncodeToString(sum[:5])
	if other, ok := s.byName[c]; ok {
		return "", fmt.Errorf("math: styles %q and %q hash to the same class %s", other, decl, c)
	}
	s.byDecl[decl], s.byName[c] = c, decl
	return c, nil
}

// css is the stylesheet of every class made, sorted by name.
func (s *inlineStyles) css() []byte {
	names := make([]string, 0, len(s.byName))
	for c := range s.byName {
		names = append(names, c)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("/* KaTeX's inline styles as classes (site/inlinestyle.go), for the Content-Security-Policy. */\n")
	for _, c := range names {
		b.WriteString("." + c + "{")
		for d := range strings.SplitSeq(s.byName[c], ";") {
			if d = strings.TrimSpace(d); d != "" {
				b.WriteString(d + " !important;")
			}
		}
		b.WriteString("}\n")
	}
	return []byte(b.String())
}
