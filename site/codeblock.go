package site

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark-highlighting/v2"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
	yaml "go.yaml.in/yaml/v3"

	"paraplay/sim/scenario"
)

// simLanguage is the info string of a fenced block that holds a scenario.
const simLanguage = "sim"

// codeBlockRenderer renders fenced code blocks: a ```sim block becomes a demo
// figure with a poster, every other language goes to the chroma highlighter.
// Scenario errors do not stop rendering; they are collected in the
// document's state with the file and line, so one build reports every bad
// block at once.
type codeBlockRenderer struct {
	doc       *docState
	highlight renderer.NodeRendererFunc
}

// RegisterFuncs implements renderer.NodeRenderer.
func (r *codeBlockRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.render)
}

func (r *codeBlockRenderer) render(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.FencedCodeBlock)
	if string(n.Language(source)) != simLanguage {
		return r.highlight(w, source, node, entering)
	}
	if !entering {
		return ast.WalkContinue, nil
	}
	text := n.Lines().Value(source)
	fenceLine := r.doc.line(n.Pos())
	fail := func(line int, msg string) {
		r.doc.errorf(fenceLine+line, "sim block: %s", msg)
	}
	view, scenarioText, viewErrs := splitView(text)
	for _, e := range viewErrs {
		fail(e.line, e.msg)
	}
	s, err := scenario.Parse(scenarioText)
	if err != nil {
		for _, e := range leafErrors(err) {
			fail(scenarioErrorLine(e, scenarioText))
		}
		return ast.WalkSkipChildren, nil
	}
	if len(viewErrs) > 0 {
		return ast.WalkSkipChildren, nil
	}
	if len(view.Sweep) > 0 {
		cells, err := sweepCollectives(s, view.Sweep, view.Compare)
		if err == nil && len(view.Compare) == 0 {
			err = errors.New("view.sweep needs view.compare: the variants to run at each size")
		}
		if err != nil {
			fail(0, err.Error())
			return ast.WalkSkipChildren, nil
		}
		_, _ = w.WriteString(sweepHTML(s.Title(), view.Sweep, view.Compare, cells))
		return ast.WalkSkipChildren, nil
	}
	if view.Plan && view.Static {
		t, err := planSearch(s, view.Compare)
		var out string
		if err == nil {
			out, err = searchHTML(s.Title(), t)
		}
		if err != nil {
			fail(0, err.Error())
			return ast.WalkSkipChildren, nil
		}
		_, _ = w.WriteString(out)
		return ast.WalkSkipChildren, nil
	}
	if len(view.Compare) > 0 {
		rows, err := comparePlans(s, view.Compare)
		if err != nil {
			fail(0, err.Error())
			return ast.WalkSkipChildren, nil
		}
		_, _ = w.WriteString(compareHTML(s, rows))
		return ast.WalkSkipChildren, nil
	}
	num := len(r.doc.demos) + 1
	d, err := newDemo(r.doc.slug, num, s, view)
	if err != nil {
		fail(0, err.Error())
		return ast.WalkSkipChildren, nil
	}
	r.doc.demos = append(r.doc.demos, d)
	d.writeHTML(w, num)
	return ast.WalkSkipChildren, nil
}

// highlighter returns the rendering function of goldmark-highlighting:
// chroma with CSS classes (the stylesheet is generated at build time, see
// chromaCSS), so pages carry no inline colours and follow the theme.
func highlighter() renderer.NodeRendererFunc {
	var fn renderer.NodeRendererFunc
	highlighting.NewHTMLRenderer(
		highlighting.WithFormatOptions(chromahtml.WithClasses(true)),
	).RegisterFuncs(funcCatcher(func(k ast.NodeKind, f renderer.NodeRendererFunc) {
		if k == ast.KindFencedCodeBlock {
			fn = f
		}
	}))
	return fn
}

// funcCatcher is a registerer that hands each registration to a function.
type funcCatcher func(ast.NodeKind, renderer.NodeRendererFunc)

func (c funcCatcher) Register(k ast.NodeKind, f renderer.NodeRendererFunc) { c(k, f) }

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
