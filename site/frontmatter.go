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
}

// fence is the line that opens and closes a front matter block.
const fence = "---"

// ParseFrontMatter splits src into its front matter and the Markdown body
// that follows it. A front matter block is optional: without one, the whole
// of src is the body. bodyLine is the line number in src (1-based) at which
// the body starts, so that errors found in the body can name lines of the
// file. Errors carry a "LINE: " prefix counted in src.
func ParseFrontMatter(src []byte) (fm FrontMatter, body []byte, bodyLine int, err error) {
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
	var fm FrontMatter
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
		return fm, fmt.Errorf("%d: front matter: want keys title, summary, order", root.Line+1)
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
	if v.Kind != yaml.ScalarNode {
		return fmt.Errorf("want a single value")
	}
	switch key {
	case "title":
		fm.Title = strings.TrimSpace(v.Value)
	case "summary":
		fm.Summary = strings.TrimSpace(v.Value)
	case "order":
		n, err := strconv.Atoi(strings.TrimSpace(v.Value))
		if err != nil {
			return fmt.Errorf("want a whole number, got %q", v.Value)
		}
		fm.Order = n
	default:
		return fmt.Errorf("unknown key; known: title, summary, order")
	}
	return nil
}
