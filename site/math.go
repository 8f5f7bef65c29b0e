package site

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/gohugoio/hugo-goldmark-extensions/passthrough"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// Math is one formula of an article, as the author wrote it.
type Math struct {
	// TeX is the formula without its $ or $$ delimiters.
	TeX string `json:"tex"`
	// Display is true for $$…$$ blocks, false for inline $…$.
	Display bool `json:"display"`
	// Where is "file.md:LINE", for error messages.
	Where string `json:"-"`
}

// mathRenderer writes a placeholder for each formula and records it: all
// the math of the site is typeset in one pass at the end of the build (one
// node process for every page, instead of one per formula).
type mathRenderer struct{ doc *docState }

// RegisterFuncs implements renderer.NodeRenderer.
func (r *mathRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(passthrough.KindPassthroughInline, r.inline)
	reg.Register(passthrough.KindPassthroughBlock, r.block)
}

func (r *mathRenderer) inline(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*passthrough.PassthroughInline)
		seg := n.Segment
		raw := seg.Value(source)
		tex := bytes.TrimSuffix(bytes.TrimPrefix(raw, []byte(n.Delimiters.Open)), []byte(n.Delimiters.Close))
		r.add(w, string(tex), n.Delimiters.Open == "$$", n.Segment.Start)
	}
	return ast.WalkContinue, nil
}

func (r *mathRenderer) block(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*passthrough.PassthroughBlock)
		var raw []byte
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			raw = append(raw, seg.Value(source)...)
		}
		raw = bytes.TrimSpace(raw)
		tex := bytes.TrimSuffix(bytes.TrimPrefix(raw, []byte(n.Delimiters.Open)), []byte(n.Delimiters.Close))
		pos := 0
		if n.Lines().Len() > 0 {
			pos = n.Lines().At(0).Start
		}
		r.add(w, string(tex), true, pos)
		_, _ = w.WriteString("\n")
	}
	return ast.WalkSkipChildren, nil
}

func (r *mathRenderer) add(w util.BufWriter, tex string, display bool, pos int) {
	d := r.doc
	d.math = append(d.math, Math{TeX: tex, Display: display, Where: d.file + ":" + strconv.Itoa(d.line(pos))})
	fmt.Fprintf(w, "<!--math:%d-->", len(d.math)-1)
}

// mathPlaceholder matches what mathRenderer writes. Raw HTML is disabled,
// so no author text can produce it.
var mathPlaceholder = regexp.MustCompile(`<!--math:(\d+)-->`)

// fillMath replaces the placeholders of body with the typeset formulas.
func fillMath(body string, typeset []string) string {
	return mathPlaceholder.ReplaceAllStringFunc(body, func(m string) string {
		i, _ := strconv.Atoi(mathPlaceholder.FindStringSubmatch(m)[1])
		return typeset[i]
	})
}

// Typesetter turns formulas into HTML, one result per formula, or fails
// naming the formula's Where.
type Typesetter func([]Math) ([]string, error)

// PlainMath is the Typesetter used without KaTeX (tests, or a site without
// math): the TeX stays readable, escaped, in a span or div of class "math".
func PlainMath(ms []Math) ([]string, error) {
	out := make([]string, len(ms))
	for i, m := range ms {
		if m.Display {
			out[i] = `<div class="math display">` + html.EscapeString(m.TeX) + `</div>`
		} else {
			out[i] = `<span class="math">` + html.EscapeString(m.TeX) + `</span>`
		}
	}
	return out, nil
}

//go:embed katex/render.js
var katexScript string

// KaTeX returns a Typesetter that runs node once with the KaTeX package in
// dir (site/node_modules/katex). Rendering at build time means pages need
// only KaTeX's stylesheet and fonts, which Build copies into the site: no
// JavaScript for math, and formulas print and work offline.
func KaTeX(dir string) Typesetter {
	return func(ms []Math) ([]string, error) {
		if len(ms) == 0 {
			return nil, nil
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		in, err := json.Marshal(ms)
		if err != nil {
			return nil, err
		}
		cmd := exec.Command("node", "-e", katexScript, abs)
		cmd.Stdin = bytes.NewReader(in)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("katex: node: %v\n%s", err, stderr.Bytes())
		}
		var results []struct {
			HTML  string `json:"html"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal(out, &results); err != nil || len(results) != len(ms) {
			return nil, fmt.Errorf("katex: unexpected output (%v): %.200s", err, out)
		}
		var errs []error
		typeset := make([]string, len(ms))
		for i, r := range results {
			if r.Error != "" {
				errs = append(errs, fmt.Errorf("%s: math: %s", ms[i].Where, r.Error))
			}
			typeset[i] = r.HTML
		}
		return typeset, errors.Join(errs...)
	}
}
