package site

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"paraplay/sim/scenario"
	"paraplay/sim/validate"
)

// Config says where Build reads and writes.
type Config struct {
	// DocsDir holds the articles, *.md, and the optional references.yaml and
	// glossary.yaml; other files there are ignored.
	DocsDir string
	// OutDir receives the site; it is created if needed, and files in it
	// that Build does not write are left alone.
	OutDir string
	// StaticDir, if not empty, is copied verbatim into OutDir (the
	// stylesheet, scripts, play.html, the wasm and its loader, images).
	StaticDir string
	// KaTeXDir, if not empty, is the KaTeX npm package (site/node_modules/
	// katex): formulas are typeset with it at build time and its stylesheet
	// and fonts are copied to OutDir/katex. Empty leaves formulas as plain
	// TeX (PlainMath), which tests use to run without node.
	KaTeXDir string
	// Gallery is the validation gallery's report (validate.Run over
	// validate.Rows), which the page "How close is ParaPlay?" shows;
	// sitegen runs it. Nil lists the rows with their published figures
	// only, marked as not run, which keeps tests that build the site fast.
	Gallery *validate.Report
}

// Report is what a build produced.
type Report struct {
	Articles, Pages, Demos, Posters, References, Cited, Formulas int
	Duration                                                     time.Duration
	// Warnings are the articles' problems that do not fail the build,
	// each "file:LINE: message".
	Warnings []string
}

func (r Report) String() string {
	if len(r.Warnings) > 0 {
		return fmt.Sprintf("%d warnings; ", len(r.Warnings)) + r.counts()
	}
	return r.counts()
}

func (r Report) counts() string {
	return fmt.Sprintf("%d pages (%d articles), %d demos, %d posters, %d references (%d cited), %d formulas, built in %v",
		r.Pages, r.Articles, r.Demos, r.Posters, r.References, r.Cited, r.Formulas, r.Duration.Round(time.Millisecond))
}

// Build renders every Markdown file of cfg.DocsDir and the site's own pages
// (index, references, glossary, playground, the validation gallery) into cfg.OutDir, writes the
// posters and stylesheets, copies cfg.StaticDir beside them, and finally
// checks the result: every link and anchor inside the site must resolve and
// no page may load anything from outside it. If any article has a problem,
// Build writes nothing and returns all the problems, each "file:LINE: message".
func Build(cfg Config) (Report, error) {
	start := time.Now()
	var rep Report
	lib, err := LoadLibrary(cfg.DocsDir)
	if err != nil {
		return rep, err
	}
	docs, err := renderAll(cfg.DocsDir, lib)
	if err != nil {
		return rep, err
	}
	typeset := PlainMath
	if cfg.KaTeXDir != "" {
		typeset = KaTeX(cfg.KaTeXDir)
	}
	mathCSS, err := typesetAll(docs, typeset)
	if err != nil {
		return rep, err
	}
	s := newSite(docs, lib)
	s.KaTeX = cfg.KaTeXDir != ""
	s.mathCSS = mathCSS
	if s.Gallery, err = newGalleryView(cfg.Gallery); err != nil {
		return rep, err
	}
	hero, err := newDemo("index", 1, scenario.Default(), demoView{Speed: 1, Autoplay: true})
	if err != nil {
		return rep, fmt.Errorf("index hero demo: %w", err)
	}
	if err := s.write(cfg, hero); err != nil {
		return rep, err
	}
	if err := Check(cfg.OutDir, builtElsewhere...); err != nil {
		return rep, err
	}
	rep = s.report(hero)
	rep.Duration = time.Since(start)
	return rep, nil
}

// renderAll renders every *.md in dir, sorted as the index lists them: by
// Order, then Title, then Slug so that the order never depends on chance.
func renderAll(dir string, lib Library) ([]*Article, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no articles (*.md)", dir)
	}
	var docs []*Article
	var errs []error
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		a, err := RenderArticle(name, src, lib)
		errs = append(errs, err)
		docs = append(docs, &a)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	sort.SliceStable(docs, func(i, j int) bool {
		a, b := docs[i], docs[j]
		if a.Order != b.Order {
			return a.Order < b.Order
		}
		if a.Title != b.Title {
			return a.Title < b.Title
		}
		return a.Slug < b.Slug
	})
	return docs, nil
}

// typesetAll typesets the math of every page in one call, each distinct
// formula once, and puts the results into the bodies, with their style
// attributes turned into classes of the stylesheet it returns.
func typesetAll(docs []*Article, typeset Typesetter) ([]byte, error) {
	type key struct {
		tex     string
		display bool
	}
	index := map[key]int{}
	var all []Math
	for _, a := range docs {
		for _, m := range a.Math {
			k := key{m.TeX, m.Display}
			if _, ok := index[k]; !ok {
				index[k] = len(all)
				all = append(all, m)
			}
		}
	}
	results, err := typeset(all)
	if err != nil {
		return nil, err
	}
	styles := newInlineStyles()
	for i := range results {
		if results[i], err = styles.rewrite(results[i]); err != nil {
			return nil, fmt.Errorf("%s: %w", all[i].Where, err)
		}
	}
	for _, a := range docs {
		mine := make([]string, len(a.Math))
		for i, m := range a.Math {
			mine[i] = results[index[key{m.TeX, m.Display}]]
		}
		a.Body = template.HTML(fillMath(string(a.Body), mine))
	}
	return styles.css(), nil
}

//go:embed templates/page.html
var pageTemplate string

// assets are the generator's own files, written into every site: the
// stylesheet, the theme switch, the demo loader and the demo page.
//
//go:embed assets
var assets embed.FS

// builtElsewhere are files of the site that build.sh's wasm step writes
// after the site build; links to them are not errors.
var builtElsewhere = []string{"paraplay.wasm", "wasm_exec.js"}

// site is everything the templates need.
type site struct {
	Articles []*Article // in index order
	Pages    []*Article // kind: page, e.g. about
	Themes   []theme
	Refs     []citedRef
	// Excluded are the surveyed papers no article covers, with the reason.
	Excluded []citedRef
	// Mechanisms counts the surveyed papers by mechanism status (nil
	// without coverage.yaml's map).
	Mechanisms *mechanismCounts
	Terms      []usedTerm
	// Gallery is the validation gallery's page (gallery.go).
	Gallery *galleryView
	// KaTeX is true when formulas were typeset with KaTeX, whose
	// stylesheet pages with math then load.
	KaTeX bool
	// CSP is the Content-Security-Policy every page declares.
	CSP string
	// mathCSS is the stylesheet of the formulas' style classes,
	// written to katex/styles.css (see inlineStyles).
	mathCSS []byte
	lib     Library
}

type theme struct {
	Name     string
	ID       string
	Articles []*Article
}

type usedTerm struct {
	Term
	By []*Article
}

func newSite(docs []*Article, lib Library) *site {
	s := &site{lib: lib, CSP: ContentSecurityPolicy}
	for _, a := range docs {
		if a.Kind == KindPage {
			s.Pages = append(s.Pages, a)
			continue
		}
		s.Articles = append(s.Articles, a)
	}
	for i, a := range s.Articles {
		if i > 0 {
			a.Prev = s.Articles[i-1]
		}
		if i+1 < len(s.Articles) {
			a.Next = s.Articles[i+1]
		}
		s.addToTheme(a)
	}
	s.Refs = citations(lib, s.Articles)
	s.Mechanisms = countMechanisms(lib.Mechanisms)
	for _, r := range s.Refs {
		if r.Excluded != "" {
			s.Excluded = append(s.Excluded, r)
		}
	}
	for _, t := range lib.Terms {
		u := usedTerm{Term: t}
		for _, a := range s.Articles {
			if strings.Contains(string(a.Body), `href="glossary.html#`+t.ID()+`"`) {
				u.By = append(u.By, a)
			}
		}
		s.Terms = append(s.Terms, u)
	}
	return s
}

// addToTheme groups articles by their theme in order of first appearance;
// those without one go under "More" at the end.
func (s *site) addToTheme(a *Article) {
	name := a.Theme
	if name == "" {
		name = "More"
	}
	for i := range s.Themes {
		if s.Themes[i].Name == name {
			s.Themes[i].Articles = append(s.Themes[i].Articles, a)
			return
		}
	}
	s.Themes = append(s.Themes, theme{Name: name, ID: "theme-" + slugify(name), Articles: []*Article{a}})
	if n := len(s.Themes); n > 1 && s.Themes[n-2].Name == "More" {
		s.Themes[n-2], s.Themes[n-1] = s.Themes[n-1], s.Themes[n-2]
	}
}

// page is what the template sees for one output file.
type page struct {
	Kind    string // article, page, index, references, glossary, playground
	Title   string
	Summary string
	Article *Article
	Hero    template.HTML
	Site    *site
}

func (s *site) write(cfg Config, hero *demo) error {
	tmpl, err := template.New("page").Parse(pageTemplate)
	if err != nil {
		return fmt.Errorf("page template: %w", err)
	}
	out := cfg.OutDir
	if err := os.MkdirAll(filepath.Join(out, "posters"), 0o755); err != nil {
		return err
	}
	var heroHTML strings.Builder
	hero.writeHTML(&heroHTML, 1)
	pages := map[string]page{
		"index.html":      {Kind: "index", Title: "ParaPlay", Summary: "Distributed deep-learning training, explained with live simulations.", Hero: template.HTML(heroHTML.String())},
		"references.html": {Kind: "references", Title: "References", Summary: "Every paper the articles draw on, and where they cite it."},
		"glossary.html":   {Kind: "glossary", Title: "Glossary", Summary: "The words the articles use, each in a sentence or two."},
		"playground.html": {Kind: "playground", Title: "Playground", Summary: "Set up your own run and watch it in the simulator."},
		galleryPage: {Kind: "validation", Title: "How close is ParaPlay?",
			Summary: "Published measurements of real clusters beside the simulator's figures for the same configurations, with the error of each."},
	}
	for _, a := range append(append([]*Article(nil), s.Articles...), s.Pages...) {
		pages[a.Slug+".html"] = page{Kind: a.Kind, Title: a.Title, Summary: a.Summary, Article: a}
		for _, p := range a.Posters {
			if err := p.write(out); err != nil {
				return err
			}
		}
	}
	if err := hero.poster.write(out); err != nil {
		return err
	}
	for name, p := range pages {
		p.Site = s
		if err := writePage(tmpl, filepath.Join(out, name), p); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(out, "chroma.css"), chromaCSS(), 0o644); err != nil {
		return err
	}
	sub, _ := fs.Sub(assets, "assets")
	if err := writeFS(out, sub); err != nil {
		return err
	}
	if cfg.KaTeXDir != "" {
		if err := copyKaTeX(out, cfg.KaTeXDir); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, "katex", "styles.css"), s.mathCSS, 0o644); err != nil {
			return err
		}
	}
	if cfg.StaticDir == "" {
		return nil
	}
	return copyDir(out, cfg.StaticDir)
}

// copyKaTeX copies the stylesheet and fonts that typeset formulas need.
func copyKaTeX(out, katexDir string) error {
	dist := filepath.Join(katexDir, "dist")
	if err := os.MkdirAll(filepath.Join(out, "katex"), 0o755); err != nil {
		return err
	}
	if err := copyFile(filepath.Join(out, "katex", "katex.min.css"), filepath.Join(dist, "katex.min.css")); err != nil {
		return fmt.Errorf("katex: %w (run npm ci in site/)", err)
	}
	return copyDir(filepath.Join(out, "katex", "fonts"), filepath.Join(dist, "fonts"))
}

func (s *site) report(hero *demo) Report {
	r := Report{Articles: len(s.Articles), Pages: len(s.Articles) + len(s.Pages) + 5, References: len(s.Refs), Demos: 1, Posters: 1}
	for _, a := range append(append([]*Article(nil), s.Articles...), s.Pages...) {
		r.Demos += len(a.Posters)
		r.Posters += len(a.Posters)
		r.Formulas += len(a.Math)
		r.Warnings = append(r.Warnings, a.Warnings...)
	}
	for _, c := range s.Refs {
		if len(c.By) > 0 {
			r.Cited++
		}
	}
	return r
}

// writePage executes the template into memory first, so a template error
// never leaves a half-written page behind.
func writePage(tmpl *template.Template, path string, p page) error {
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, p); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// copyDir copies every regular file under src into dst, keeping the
// directory structure and overwriting what is there. (os.CopyFS refuses to
// overwrite, which would break every rebuild.)
func copyDir(dst, src string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return copyFile(target, path)
		default:
			return nil // symlinks, sockets: not part of a static site
		}
	})
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// writeFS writes every file of fsys under dir, overwriting.
func writeFS(dir string, fsys fs.FS) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
