package site

import (
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles creates files (path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBuildIndexListsArticles(t *testing.T) {
	root := t.TempDir()
	docs, static, out := filepath.Join(root, "docs"), filepath.Join(root, "static"), filepath.Join(root, "out")
	writeFiles(t, docs, map[string]string{
		"zeta.md":          "---\ntitle: Zeta\nsummary: Last by order.\norder: 3\n---\nZ\n",
		"beta.md":          "---\ntitle: Beta\nsummary: Same order, B after A.\norder: 1\n---\nB\n",
		"alpha.md":         "---\ntitle: Alpha & co\nsummary: First.\norder: 1\n---\n```sim\ngpus: 8\n```\n",
		"notes-on-refs.md": "---\ntitle: References\norder: 9\n---\n",
		"notes.txt":        "not an article",
	})
	writeFiles(t, static, map[string]string{
		"style.css":      "body{}",
		"play.html":      "<!doctype html><meta http-equiv=\"Content-Security-Policy\" content=\"" + ContentSecurityPolicy + "\">",
		"img/ring.svg":   "<svg/>",
		"wasm/app.wasm":  "\x00asm",
		"wasm/loader.js": "//",
	})
	if _, err := Build(Config{DocsDir: docs, OutDir: out, StaticDir: static}); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`<a href="alpha.html">Alpha &amp; co</a><p>First.</p>`,
		`<a href="beta.html">Beta</a><p>Same order, B after A.</p>`,
		`<a href="zeta.html">Zeta</a>`,
		`<a href="notes-on-refs.html">References</a>`,
	}
	last := -1
	for _, w := range want {
		i := strings.Index(string(index), w)
		if i < 0 {
			t.Fatalf("index.html does not contain %q:\n%s", w, index)
		}
		if i < last {
			t.Errorf("index.html lists %q out of order", w)
		}
		last = i
	}
	for _, f := range []string{"alpha.html", "beta.html", "zeta.html", "notes-on-refs.html", "references.html", "glossary.html", "playground.html", "posters/alpha-1.svg", "style.css", "play.html", "img/ring.svg", "wasm/app.wasm", "wasm/loader.js"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing output %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "notes.html")); err == nil {
		t.Error("notes.txt was rendered; only *.md are articles")
	}
	alpha, _ := os.ReadFile(filepath.Join(out, "alpha.html"))
	if !strings.Contains(string(alpha), `data-src="play.html?embed=1&amp;gpus=8"`) || !strings.Contains(string(alpha), `<img class="poster" src="posters/alpha-1.svg"`) {
		t.Errorf("alpha.html has no demo poster:\n%s", alpha)
	}
	// A second build over the first must succeed (static files overwritten).
	if _, err := Build(Config{DocsDir: docs, OutDir: out, StaticDir: static}); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
}

func TestBuildFailsOnBadSimBlockAndWritesNothing(t *testing.T) {
	root := t.TempDir()
	docs, out := filepath.Join(root, "docs"), filepath.Join(root, "out")
	writeFiles(t, docs, map[string]string{
		"good.md": "---\ntitle: Good\n---\nFine.\n",
		"bad.md":  "---\ntitle: Bad\n---\n\nIntro.\n\n```sim\ngpus: 4\nlink:\n  bandwidth: fast\n```\n",
	})
	_, err := Build(Config{DocsDir: docs, OutDir: out})
	if err == nil {
		t.Fatal("Build succeeded, want an error for bad.md")
	}
	want := filepath.Join(docs, "bad.md") + ":10: sim block: link.bandwidth:"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("got %q, want it to contain %q", err, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("Build created the output directory despite the error")
	}
}

func TestBuildRealDocs(t *testing.T) {
	out := t.TempDir()
	cfg := Config{DocsDir: "../docs", OutDir: out}
	if _, err := os.Stat("node_modules/katex"); err == nil {
		cfg.KaTeXDir = "node_modules/katex"
	} else {
		t.Log("node_modules/katex missing (npm ci in site/): math stays plain TeX")
	}
	rep, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("report: %v", rep)
	page, err := os.ReadFile(filepath.Join(out, "ring-allreduce.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`data-src="play.html?embed=1`, `class="poster"`, "gpus=8", `id="bibliography"`, `href="#ref-ringar"`, `class="chroma"`, `class="toc"`, `href="glossary.html#term-all-reduce"`} {
		if !strings.Contains(string(page), w) {
			t.Errorf("ring-allreduce.html lacks %q", w)
		}
	}
	// Only the autoplay placeholder may be an iframe, and it has no src.
	if n := strings.Count(string(page), "<iframe"); n > 1 || strings.Contains(string(page), "<iframe src") {
		t.Errorf("ring-allreduce.html has %d iframes (or one with a src) before any interaction; want posters only", n)
	}
	// Every page declares the policy (Check also holds them to it).
	pages, _ := filepath.Glob(filepath.Join(out, "*.html"))
	meta := `<meta http-equiv="Content-Security-Policy" content="` + template.HTMLEscapeString(ContentSecurityPolicy) + `">`
	for _, p := range pages {
		if data, _ := os.ReadFile(p); !strings.Contains(string(data), meta) && !strings.Contains(string(data), strings.ReplaceAll(meta, "&#39;", "'")) {
			t.Errorf("%s lacks %s", filepath.Base(p), meta)
		}
	}
	if len(pages) < 20 {
		t.Errorf("found %d pages, want every article and the site's own pages", len(pages))
	}
	// Check already ran inside Build; run it again so a regression in
	// Build's wiring cannot hide the offline and link guarantees.
	if err := Check(out, builtElsewhere...); err != nil {
		t.Errorf("Check: %v", err)
	}
}
