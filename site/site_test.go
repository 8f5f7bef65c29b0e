package site

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// parseTxtar splits a txtar-like archive: "-- name --" lines start files;
// text before the first one is a comment. (golang.org/x/tools/txtar is not
// a dependency; this is all these tests need.)
func parseTxtar(archive string) map[string]string {
	files := map[string]string{}
	name := ""
	for line := range strings.SplitSeq(archive, "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --") {
			name = strings.TrimSpace(line[3 : len(line)-3])
			files[name] = ""
			continue
		}
		if name != "" {
			files[name] += line + "\n"
		}
	}
	return files
}

// buildSite writes the archive's files into a temporary docs directory and
// builds them, Hugo's integration-test style: a whole small site in a string.
func buildSite(t *testing.T, archive string) (string, Report, error) {
	t.Helper()
	root := t.TempDir()
	docs, out := filepath.Join(root, "docs"), filepath.Join(root, "out")
	writeFiles(t, docs, parseTxtar(archive))
	rep, err := Build(Config{DocsDir: docs, OutDir: out})
	return out, rep, err
}

// assertFile checks that out/name contains every want, in order.
func assertFile(t *testing.T, out, name string, want ...string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	rest := string(data)
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Errorf("%s: missing (or out of order) %q", name, w)
			continue
		}
		rest = rest[i+len(w):]
	}
}

const smallSite = `
A site of three articles in two themes, one page, references and a glossary.
-- ring.md --
---
title: Ring
order: 1
theme: Collectives
ideas: [ringar]
---
## Why

The all-reduce sums gradients [@ringar]. The all-reduce again.

## How

` + "```sim\ngpus: 4\nview:\n  poster: 5ms\n  hide: [legend]\n```" + `

## Cost

$T = 2(n-1)\alpha$
-- tree.md --
---
title: Tree
order: 2
theme: Collectives
---
Trees [@mpich; @ringar].
-- zero.md --
---
title: Sharding
order: 3
theme: Memory
---
No citations here.
-- about.md --
---
title: About
kind: page
---
About the all-reduce.
-- references.yaml --
- key: ringar
  authors: [Pitch Patarasuk, Xin Yuan]
  title: Bandwidth optimal all-reduce
  year: 2009
  doi: 10.1016/j.jpdc.2008.09.002
- key: mpich
  authors: [Rajeev Thakur, Rolf Rabenseifner, William Gropp]
  title: Collectives in MPICH
  year: 2005
  doi: 10.1177/1094342005051521
- key: unused
  authors: [A. Nobody]
  title: Not cited
  year: 2020
  arxiv: "2001.00001"
-- glossary.yaml --
- term: all-reduce
  definition: Everyone ends with the sum.
`

func TestSmallSite(t *testing.T) {
	out, rep, err := buildSite(t, smallSite)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Articles != 3 || rep.Pages != 9 || rep.Demos != 2 || rep.References != 3 || rep.Cited != 2 || rep.Formulas != 1 {
		t.Errorf("report: got %+v", rep)
	}
	assertFile(t, out, "index.html",
		`<section class="hero">`, `data-autoplay`,
		`<h2 id="theme-collectives">Collectives</h2>`, `href="ring.html"`, `href="tree.html"`,
		`<h2 id="theme-memory">Memory</h2>`, `href="zero.html"`)
	assertFile(t, out, "ring.html",
		`href="about.html">About</a>`,
		`Ideas from <a href="references.html#ringar">Patarasuk and Yuan (2009)</a>`,
		`<nav class="toc"`, `href="#why"`, `href="#how"`, `href="#cost"`, `href="#bibliography"`,
		`<a href="glossary.html#term-all-reduce" title="Everyone ends with the sum." class="term">all-reduce</a>`,
		`[<a href="#ref-ringar"`, `>1</a>]`,
		`The all-reduce again.`, // second use: not linked
		`data-src="play.html?embed=1&amp;hide=legend"`, `src="posters/ring-1.svg"`,
		`<span class="math">T = 2(n-1)\alpha</span>`,
		`<li id="ref-ringar">`,
		`rel="next"`)
	assertFile(t, out, "tree.html", `>1</a>, <a href="#ref-ringar"`, `>2</a>]`, `<li id="ref-mpich">`, `<li id="ref-ringar">`, `rel="prev"`, `rel="next"`)
	assertFile(t, out, "references.html",
		`<li id="unused">`, `no article cites it yet`, // by surname: Nobody, Patarasuk, Thakur
		`<li id="ringar">`, `Cited in <a href="ring.html">Ring</a>, <a href="tree.html">Tree</a>.`,
		`<li id="mpich">`)
	assertFile(t, out, "glossary.html", `<dt id="term-all-reduce">all-reduce</dt>`, `Used in <a href="ring.html">Ring</a>`)
	assertFile(t, out, "about.html", `<h1>About</h1>`)
	if data, _ := os.ReadFile(filepath.Join(out, "index.html")); strings.Contains(string(data), `href="about.html">About</a></li>`) {
		t.Error("index lists the about page as an article")
	}
	svg, err := os.ReadFile(filepath.Join(out, "posters/ring-1.svg"))
	if err != nil || !strings.HasPrefix(string(svg), "<svg") || strings.Contains(string(svg), `data-id="legend/`) {
		t.Errorf("poster: err %v; want an SVG without the hidden legend", err)
	}
}

func TestSiteErrors(t *testing.T) {
	tests := []struct {
		name, archive, want string
	}{
		{"unknown citation", "-- a.md --\n---\ntitle: A\n---\n\nSee [@missing].\n", `a.md:5: citation: unknown reference key "missing"`},
		{"external image", "-- a.md --\n---\ntitle: A\n---\n![x](https://example.org/x.png)\n", `img src "https://example.org/x.png" loads from outside the site`},
		{"broken link", "-- a.md --\n---\ntitle: A\n---\n[b](b.html)\n", `a.html: link "b.html": no such file`},
		{"broken anchor", "-- a.md --\n---\ntitle: A\n---\n[b](#nowhere)\n", `a.html: link "#nowhere": a.html has no id "nowhere"`},
		{"bad reference", "-- a.md --\n---\ntitle: A\n---\n-- references.yaml --\n- key: Bad Key\n  title: T\n  authors: [A]\n  year: 1800\n", `references.yaml:1: reference "Bad Key": key must be`},
		{"javascript url", "-- a.md --\n---\ntitle: A\n---\n-- references.yaml --\n- key: x\n  title: T\n  authors: [A]\n  year: 2020\n  url: javascript:alert(1)\n", `references.yaml:1: reference "x": url "javascript:alert(1)" scheme "javascript" is not allowed`},
		{"data url", "-- a.md --\n---\ntitle: A\n---\n-- references.yaml --\n- key: x\n  title: T\n  authors: [A]\n  year: 2020\n  url: DATA:text/html,hi\n", `url "DATA:text/html,hi" scheme "data" is not allowed`},
		{"unknown reference field", "-- a.md --\n---\ntitle: A\n---\n-- references.yaml --\n- key: x\n  title: T\n  authors: [A]\n  year: 2020\n  arxiv: \"2001.00001\"\n  titel: typo\n", `references.yaml:6: unknown field "titel" in references (allowed: key, authors,`},
		{"unknown term field", "-- a.md --\n---\ntitle: A\n---\n-- glossary.yaml --\n- term: ring\n  definiton: d\n", `glossary.yaml:2: unknown field "definiton" in terms (allowed: term, also, definition)`},
		{"duplicate term", "-- a.md --\n---\ntitle: A\n---\n-- glossary.yaml --\n- term: ring\n  definition: d\n- term: Ring\n  definition: e\n", `glossary.yaml:3: "Ring" is already defined on line 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := buildSite(t, tt.archive)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	meta := `<meta http-equiv="Content-Security-Policy" content="` + ContentSecurityPolicy + `">`
	writeFiles(t, dir, map[string]string{
		"index.html": meta + `<link rel="stylesheet" href="https://cdn.example/x.css"><script src="//cdn.example/x.js"></script>
<a href="https://example.org/paper">fine: a link, not a load</a><a href="a.html#here">ok</a><a href="a.html#gone">bad</a>
<img src="data:image/png;base64,AAAA"><iframe src="play.html?x=1"></iframe><div style="background:url(http://x/y.png)"></div>`,
		"a.html":    meta + `<h2 id="here">Here</h2><link rel="stylesheet" href="s.css">`,
		"s.css":     `@import "https://fonts.example/f.css"; body{background:url(img/missing.png)} .k{background:url("ok.png")}`,
		"ok.png":    "",
		"play.html": meta,
	})
	err := Check(dir)
	if err == nil {
		t.Fatal("Check passed a site that loads from outside")
	}
	for _, w := range []string{
		`index.html: link href "https://cdn.example/x.css" loads from outside`,
		`index.html: script src "//cdn.example/x.js" loads from outside`,
		`index.html: link "a.html#gone": a.html has no id "gone"`,
		`index.html: CSS url() "http://x/y.png" loads from outside`,
		`s.css: CSS @import "https://fonts.example/f.css" loads from outside`,
		`s.css: link "img/missing.png": no such file`,
		`index.html: <div style="background:url(http://x/y.png)">: style attributes are blocked`,
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("Check: missing %q in\n%v", w, err)
		}
	}
	if n := len(strings.Split(err.Error(), "\n")); n != 7 {
		t.Errorf("Check reported %d problems, want 7:\n%v", n, err)
	}
}

// fifteenArticles writes a docs tree of 15 copies of the ring article and
// returns the build configuration for it.
func fifteenArticles(tb testing.TB) Config {
	src, err := os.ReadFile("../docs/ring-allreduce.md")
	if err != nil {
		tb.Fatal(err)
	}
	root := tb.TempDir()
	docs := filepath.Join(root, "docs")
	files := map[string]string{}
	for _, f := range []string{"references.yaml", "glossary.yaml"} {
		data, err := os.ReadFile("../docs/" + f)
		if err != nil {
			tb.Fatal(err)
		}
		files[f] = string(data)
	}
	// The ring article links to other articles; stub pages let those links
	// resolve without building the other articles' demos.
	for _, m := range regexp.MustCompile(`\]\(([a-z0-9-]+)\.html`).FindAllStringSubmatch(string(src), -1) {
		files[m[1]+".md"] = "---\ntitle: " + m[1] + "\nkind: page\n---\n\nA stub.\n"
	}
	for i := 1; i <= 15; i++ {
		files[fmt.Sprintf("ring-%02d.md", i)] = strings.Replace(string(src), "order: 1", fmt.Sprintf("order: %d", i), 1)
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(docs, name)), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(docs, name), []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	cfg := Config{DocsDir: docs, OutDir: filepath.Join(root, "out")}
	if _, err := os.Stat("node_modules/katex"); err == nil {
		cfg.KaTeXDir = "node_modules/katex"
	}
	return cfg
}

// TestBuildFifteenArticles checks that a site of 15 articles builds (the
// issue's budget, under 10 s without the wasm, is measured by
// BenchmarkBuildFifteenArticles, not asserted: a shared CI machine's wall
// clock says nothing about the code).
func TestBuildFifteenArticles(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	rep, err := Build(fifteenArticles(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("15 articles: %v", rep)
}

// BenchmarkBuildFifteenArticles times the 15-article site.
func BenchmarkBuildFifteenArticles(b *testing.B) {
	cfg := fifteenArticles(b)
	for b.Loop() {
		if _, err := Build(cfg); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCheckPolicy(t *testing.T) {
	meta := `<meta http-equiv="Content-Security-Policy" content="` + ContentSecurityPolicy + `">`
	tests := []struct{ name, page, want string }{
		{"clean", meta + `<script src="a.js"></script><p class="x">hi</p>`, ""},
		{"no meta", `<p>hi</p>`, `no <meta http-equiv="Content-Security-Policy">`},
		{"other policy", `<meta http-equiv="Content-Security-Policy" content="default-src *">`, `Content-Security-Policy "default-src *" is not the site's`},
		{"meta after a script", `<script src="a.js"></script>` + meta, "the Content-Security-Policy <meta> comes after a <script>"},
		{"inline script", meta + "<script>\nalert(1)\n</script>", `inline <script> (the Content-Security-Policy allows scripts from files only): "alert(1)"`},
		{"handler", meta + `<img src="a.js" onerror="alert(1)">`, "<img onerror=…>: event handler attributes are blocked"},
		{"style attribute", meta + `<span style="height:1em">x</span>`, `<span style="height:1em">: style attributes are blocked`},
		{"style element", meta + `<style>p{}</style>`, "<style> element"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"p.html": tt.page, "a.js": ""})
			err := Check(dir)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check: got %v, want no problem", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), "p.html: "+tt.want)):
				t.Errorf("Check: got %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
