package site

import (
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Check scans a built site and reports every problem at once:
//
//   - offline: an element that loads something (src, data-src, poster,
//     srcset, <link href>, form action), a CSS url() or @import, that
//     points outside the site (a scheme such as https:, or //host);
//   - links: a reference inside the site to a file that does not exist, or
//     to an #anchor that the target page does not define;
//   - policy: a page without the <meta> of ContentSecurityPolicy at the top
//     of its head, or with something that policy would block: an inline
//     <script>, an on* handler attribute, a style attribute or a <style>
//     element (the browser would refuse them, silently for the reader).
//
// Links to other sites in <a href> are allowed: following one is the
// reader's choice, not a request the page makes by itself. Files named in
// missingOK (relative to dir) may be referenced before they exist.
func Check(dir string, missingOK ...string) error {
	pages := map[string]string{} // slash path → content, for .html/.css/.svg
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(p) {
		case ".html", ".css", ".svg":
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			pages[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	if err != nil {
		return err
	}
	c := checker{dir: dir, pages: pages, ids: map[string]map[string]bool{}, missingOK: map[string]bool{}}
	for _, f := range missingOK {
		c.missingOK[f] = true
	}
	for name, content := range pages {
		switch path.Ext(name) {
		case ".html":
			c.checkHTML(name, content)
		case ".css":
			c.checkCSS(name, content)
		case ".svg":
			c.checkCSS(name, content) // inline styles; SVG posters load nothing
			for _, m := range hrefAttr.FindAllStringSubmatch(content, -1) {
				c.load(name, "href", html.UnescapeString(m[2]))
			}
		}
	}
	return errors.Join(c.errs...)
}

type checker struct {
	dir   string
	pages map[string]string
	ids   map[string]map[string]bool
	errs  []error

	missingOK map[string]bool
}

var (
	// tagPattern finds start tags; attrPattern their quoted attributes.
	tagPattern  = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)\b([^>]*)>`)
	attrPattern = regexp.MustCompile(`\s([a-zA-Z:-]+)\s*=\s*"([^"]*)"`)
	hrefAttr    = regexp.MustCompile(`\s(href|xlink:href)\s*=\s*"([^"]*)"`)
	idPattern   = regexp.MustCompile(`\sid\s*=\s*"([^"]*)"`)
	cssURL      = regexp.MustCompile(`url\(\s*['"]?([^'")]+)['"]?\s*\)`)
	cssImport   = regexp.MustCompile(`@import\s+(?:url\()?\s*['"]?([^'")\s;]+)`)
	styleBlock  = regexp.MustCompile(`(?s)<style[^>]*>(.*?)</style>`)
	scriptBlock = regexp.MustCompile(`(?s)<script[^>]*>.*?</script>`)
	cspMeta     = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
	inlineCode  = regexp.MustCompile(`(?s)<script\b([^>]*)>(.*?)</script>`)
)

// loadingAttrs are attributes whose URL the browser fetches by itself.
var loadingAttrs = map[string]bool{"src": true, "data-src": true, "poster": true, "srcset": true, "action": true, "data": true}

func (c *checker) checkHTML(name, content string) {
	c.checkPolicy(name, content)
	content = scriptBlock.ReplaceAllStringFunc(content, func(s string) string {
		// keep the opening tag's attributes (src=) but not the code
		return s[:strings.Index(s, ">")+1]
	})
	for _, tag := range tagPattern.FindAllStringSubmatch(content, -1) {
		tagName := strings.ToLower(tag[1])
		for _, a := range attrPattern.FindAllStringSubmatch(tag[2], -1) {
			attr, val := strings.ToLower(a[1]), html.UnescapeString(a[2])
			switch {
			case loadingAttrs[attr], attr == "href" && tagName == "link":
				c.load(name, tagName+" "+attr, val)
			case attr == "href":
				c.link(name, val)
			case attr == "style":
				c.checkCSS(name, val)
			}
		}
	}
	for _, m := range styleBlock.FindAllStringSubmatch(content, -1) {
		c.checkCSS(name, m[1])
	}
}

func (c *checker) checkCSS(name, css string) {
	for _, m := range cssURL.FindAllStringSubmatch(css, -1) {
		c.load(name, "CSS url()", m[1])
	}
	for _, m := range cssImport.FindAllStringSubmatch(css, -1) {
		c.load(name, "CSS @import", m[1])
	}
}

// external reports whether ref leaves the site.
func external(ref string) bool {
	u, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return true
	}
	return u.Scheme != "" && u.Scheme != "data" || u.Host != "" || strings.HasPrefix(ref, "//")
}

// load checks a URL that the page fetches: it must stay inside the site.
func (c *checker) load(from, what, ref string) {
	if what == "img srcset" || what == "source srcset" {
		ref = strings.Fields(ref + " ")[0]
	}
	if external(ref) {
		c.errs = append(c.errs, fmt.Errorf("%s: %s %q loads from outside the site", from, what, ref))
		return
	}
	c.link(from, ref)
}

// link checks that an internal reference resolves to a file, and its
// fragment to an id on that page.
func (c *checker) link(from, ref string) {
	if external(ref) || strings.HasPrefix(ref, "data:") || strings.HasPrefix(ref, "mailto:") {
		return
	}
	u, err := url.Parse(ref)
	if err != nil {
		c.errs = append(c.errs, fmt.Errorf("%s: bad link %q: %v", from, ref, err))
		return
	}
	target := from
	if u.Path != "" {
		target = path.Join(path.Dir(from), u.Path)
		if strings.HasSuffix(u.Path, "/") {
			target = path.Join(target, "index.html")
		}
		if _, err := os.Stat(filepath.Join(c.dir, filepath.FromSlash(target))); err != nil && !c.missingOK[target] {
			c.errs = append(c.errs, fmt.Errorf("%s: link %q: no such file in the site", from, ref))
			return
		}
	}
	if u.Fragment == "" || path.Ext(target) != ".html" {
		return
	}
	if !c.idsOf(target)[u.Fragment] {
		c.errs = append(c.errs, fmt.Errorf("%s: link %q: %s has no id %q", from, ref, target, u.Fragment))
	}
}

func (c *checker) idsOf(page string) map[string]bool {
	if ids, ok := c.ids[page]; ok {
		return ids
	}
	ids := map[string]bool{}
	for _, m := range idPattern.FindAllStringSubmatch(c.pages[page], -1) {
		ids[html.UnescapeString(m[1])] = true
	}
	c.ids[page] = ids
	return ids
}

// checkPolicy reports what the page's Content-Security-Policy would block,
// and a page that does not declare it before it loads anything.
func (c *checker) checkPolicy(name, content string) {
	bad := func(format string, args ...any) {
		c.errs = append(c.errs, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...)))
	}
	m := cspMeta.FindStringSubmatchIndex(content)
	switch {
	case m == nil:
		bad(`no <meta http-equiv="Content-Security-Policy"> (every page declares ContentSecurityPolicy)`)
	case html.UnescapeString(content[m[2]:m[3]]) != ContentSecurityPolicy:
		bad("Content-Security-Policy %q is not the site's %q", html.UnescapeString(content[m[2]:m[3]]), ContentSecurityPolicy)
	default:
		for _, first := range []string{"<script", "<link", "<style"} {
			if i := strings.Index(content, first); i >= 0 && i < m[0] {
				bad("the Content-Security-Policy <meta> comes after a %s>: it must come first in <head>", first)
			}
		}
	}
	for _, s := range inlineCode.FindAllStringSubmatch(content, -1) {
		if !strings.Contains(s[1], "src=") && strings.TrimSpace(s[2]) != "" {
			bad("inline <script> (the Content-Security-Policy allows scripts from files only): %.40q", strings.TrimSpace(s[2]))
		}
	}
	stripped := scriptBlock.ReplaceAllStringFunc(content, func(s string) string { return s[:strings.Index(s, ">")+1] })
	for _, tag := range tagPattern.FindAllStringSubmatch(stripped, -1) {
		if strings.EqualFold(tag[1], "style") {
			bad("<style> element (the Content-Security-Policy allows stylesheets from files only)")
		}
		for _, a := range attrPattern.FindAllStringSubmatch(tag[2], -1) {
			switch attr := strings.ToLower(a[1]); {
			case attr == "style":
				bad("<%s style=%q>: style attributes are blocked by the Content-Security-Policy; use a class", tag[1], a[2])
			case strings.HasPrefix(attr, "on"):
				bad("<%s %s=…>: event handler attributes are blocked by the Content-Security-Policy; use addEventListener in a script file", tag[1], attr)
			}
		}
	}
}
