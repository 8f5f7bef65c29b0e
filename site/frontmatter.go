package site

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// FrontMatter is the metadata at the top of an article.
type FrontMatter struct {
	// Title is the article's heading and the page title; required.
	Title string
	// Summary is one or two sentences shown under the title on the index.
	Summary string
	// Order places the article on the index: lower first, then by title.
	Order int
	// Theme groups the article on the index ("Data parallelism",
	// "Pipelines"); articles without one are listed under "More".
	Theme string
	// Tags are short keywords shown under the title.
	Tags []string
	// Ideas are keys of docs/references.yaml: the papers whose authors had
	// the ideas the article explains. They are credited under the title and
	// listed with the article's references.
	Ideas []string
	// Kind is "article" (the default: listed on the index, with prev/next
	// links) or "page" (a standalone page such as about.md, linked from the
	// header only).
	Kind string
}

// Kinds of page a Markdown file can be.
const (
	KindArticle = "article"
	KindPage    = "page"
)

// frontMatterKeys lists the keys for error messages.
const frontMatterKeys = "title, summary, order, theme, tags, ideas, kind"

// fence is the line that opens and closes a front matter block.
const fence = "---"

// ParseFrontMatter splits src into its front matter and the Markdown body
// that follows it. A front matter block is optional: without one, the whole
// of src is the body. bodyLine is the line number in src (1-based) at which
// the body starts, so that errors found in the body can name lines of the
// file. Errors carry a "LINE: " prefix counted in src.
func ParseFrontMatter(src []byte) (fm FrontMatter, body []byte, bodyLine int, err error) {
	fm.Kind = KindArticle
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	if strings.TrimRight(string(first), " \t\r") != fence {
		return fm, src, 1, nil
	}
	yamlText, body, n, ok := cutFence(rest)
	if !ok {
		return fm, nil, 0, fmt.Errorf("1: front matter: no closing %q line", fence)
	}
	fm, err = decodeFrontMatter(yamlText)
	// Line 1 is the opening fence, then n lines of YAML, then the closing one.
	return fm, body, n + 3, err
}

// cutFence finds the closing fence line in rest and returns the YAML before
// it, the body after it, and the number of YAML lines.
func cutFence(rest []byte) (yamlText, body []byte, lines int, ok bool) {
	for off := 0; off <= len(rest); lines++ {
		end := bytes.IndexByte(rest[off:], '\n')
		next := off + end + 1
		if end < 0 {
			end, next = len(rest)-off, len(rest)+1
		}
		if strings.TrimRight(string(rest[off:off+end]), " \t\r") == fence {
			return rest[:off], rest[min(next, len(rest)):], lines, true
		}
		off = next
	}
	return nil, nil, 0, false
}

// yamlLine finds the line number in a yaml library error message.
var yamlLine = regexp.MustCompile(`line (\d+)`)

// decodeFrontMatter reads the keys one by one, so that an unknown key or a
// bad value names its line. Lines are counted in the file: the YAML starts
// on line 2, after the opening fence.
func decodeFrontMatter(data []byte) (FrontMatter, error) {
	fm := FrontMatter{Kind: KindArticle}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line := 1
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			n, _ := strconv.Atoi(m[1])
			line = n + 1
		}
		return fm, fmt.Errorf("%d: front matter: %v", line, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return fm, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return fm, fmt.Errorf("%d: front matter: want keys %s", root.Line+1, frontMatterKeys)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if err := setFrontMatter(&fm, k.Value, v); err != nil {
			return fm, fmt.Errorf("%d: front matter: %s: %v", k.Line+1, k.Value, err)
		}
	}
	return fm, nil
}

func setFrontMatter(fm *FrontMatter, key string, v *yaml.Node) error {
	switch key {
	case "tags":
		return setList(&fm.Tags, v)
	case "ideas":
		return setList(&fm.Ideas, v)
	}
	if v.Kind != yaml.ScalarNode {
		return fmt.Errorf("want a single value")
	}
	val := strings.TrimSpace(v.Value)
	switch key {
	case "title":
		fm.Title = val
	case "summary":
		fm.Summary = val
	case "theme":
		fm.Theme = val
	case "order":
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("want a whole number, got %q", v.Value)
		}
		fm.Order = n
	case "kind":
		if val != KindArticle && val != KindPage {
			return fmt.Errorf("want %q or %q, got %q", KindArticle, KindPage, v.Value)
		}
		fm.Kind = val
	default:
		return fmt.Errorf("unknown key; known: %s", frontMatterKeys)
	}
	return nil
}

// setList accepts a YAML list of strings or, for convenience, one string.
func setList(dst *[]string, v *yaml.Node) error {
	switch v.Kind {
	case yaml.ScalarNode:
		*dst = []string{strings.TrimSpace(v.Value)}
	case yaml.SequenceNode:
		*dst = nil
		for _, item := range v.Content {
			if item.Kind != yaml.ScalarNode {
				return fmt.Errorf("want a list of words")
			}
			*dst = append(*dst, strings.TrimSpace(item.Value))
		}
	default:
		return fmt.Errorf("want a list, e.g. [ring, bandwidth]")
	}
	return nil
}
