package site

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
	yaml "go.yaml.in/yaml/v3"

	"paraplay/sim/scenario"
)

// simLanguage is the info string of a fenced block that holds a scenario.
const simLanguage = "sim"

// codeBlockRenderer renders fenced code blocks: a ```sim block becomes a demo
// figure, every other language a plain escaped <pre><code>. Scenario errors
// do not stop rendering; they are collected in errs with the file and the
// line in the Markdown file, so one build reports every bad block at once.
type codeBlockRenderer struct {
	file      string // name used in error messages
	firstLine int    // line of the file at which the rendered source starts
	errs      []error
}

// RegisterFuncs implements renderer.NodeRenderer.
func (r *codeBlockRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.render)
}

func (r *codeBlockRenderer) render(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	text := n.Lines().Value(source)
	lang := string(n.Language(source))
	if lang != simLanguage {
		writeCode(w, lang, text)
		return ast.WalkSkipChildren, nil
	}
	s, err := scenario.Parse(text)
	if err != nil {
		fenceLine := r.firstLine + bytes.Count(source[:max(n.Pos(), 0)], []byte("\n"))
		for _, e := range leafErrors(err) {
			line, msg := scenarioErrorLine(e, text)
			r.errs = append(r.errs, fmt.Errorf("%s:%d: sim block: %s", r.file, fenceLine+line, msg))
		}
		writeCode(w, lang, text) // the build fails anyway; keep the output readable
		return ast.WalkSkipChildren, nil
	}
	writeDemo(w, &s)
	return ast.WalkSkipChildren, nil
}

// writeCode writes a code block the way goldmark does, escaped, with the
// language as a class for a highlighter.
func writeCode(w util.BufWriter, lang string, text []byte) {
	_, _ = w.WriteString("<pre><code")
	if lang != "" {
		_, _ = w.WriteString(` class="language-` + html.EscapeString(lang) + `"`)
	}
	_, _ = w.WriteString(">" + html.EscapeString(string(text)) + "</code></pre>\n")
}

// writeDemo writes the figure that embeds the browser app. The iframe is
// lazy so that a page with several demos does not start every runtime at
// once; CSS gives it the 16:10 shape of the app's 960×600 canvas. The
// caption leads with the scenario's name when the author gave one.
func writeDemo(w util.BufWriter, s *scenario.Scenario) {
	src := "play.html"
	if q := s.Query().Encode(); q != "" {
		src += "?" + q
	}
	src = html.EscapeString(src)
	desc := html.EscapeString(s.Describe())
	title, caption := desc, desc
	if def := scenario.Default(); s.Name != def.Name && s.Name != "" {
		name := html.EscapeString(s.Name)
		title = name + " — " + desc
		caption = "<strong>" + name + "</strong> — " + desc
	}
	fmt.Fprintf(w, `<figure class="demo">
<iframe src="%s" title="Live demo: %s" loading="lazy" width="100%%" allowfullscreen></iframe>
<figcaption>%s · <a href="%s">open full page</a></figcaption>
</figure>
`, src, title, caption, src)
}

// leafErrors flattens errors.Join trees so each problem gets its own line.
func leafErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, leafErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// linePrefix matches the "line N: " that scenario.Parse puts before the
// errors it can place; yaml syntax errors say "line N" inside the message.
var (
	linePrefix = regexp.MustCompile(`^line (\d+): `)
	lineAny    = regexp.MustCompile(`\bline (\d+)\b`)
)

// scenarioErrorLine returns the YAML line (1-based; 0 if unknown) of one
// scenario error and its message without the line prefix. Validation errors
// carry no line, so the line of the field's key is looked up in the YAML.
func scenarioErrorLine(err error, yamlText []byte) (int, string) {
	msg := err.Error()
	if m := linePrefix.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, msg[len(m[0]):]
	}
	var fe *scenario.FieldError
	if errors.As(err, &fe) {
		return keyLine(yamlText, fe.Field), msg
	}
	if m := lineAny.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, msg
	}
	return 0, msg
}

// keyLine finds the line of a dotted key such as "link.bandwidth" in a
// YAML mapping, or 0 if it is not there.
func keyLine(yamlText []byte, dotted string) int {
	var doc yaml.Node
	if yaml.Unmarshal(yamlText, &doc) != nil || len(doc.Content) == 0 {
		return 0
	}
	n := doc.Content[0]
	line := 0
	for part := range strings.SplitSeq(dotted, ".") {
		if n.Kind != yaml.MappingNode {
			return 0
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				line, n, found = n.Content[i].Line, n.Content[i+1], true
				break
			}
		}
		if !found {
			return 0
		}
	}
	return line
}
