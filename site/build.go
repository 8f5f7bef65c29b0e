package site

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Config says where Build reads and writes.
type Config struct {
	// DocsDir holds the articles, *.md; other files there are ignored.
	DocsDir string
	// OutDir receives the site; it is created if needed, and files in it
	// that Build does not write are left alone.
	OutDir string
	// StaticDir, if not empty, is copied verbatim into OutDir (the
	// stylesheet, play.html, the wasm and its loader, images).
	StaticDir string
}

//go:embed templates/page.html
var pageTemplate string

// page is what the template sees. Article is nil on the index.
type page struct {
	Title    string
	Summary  string
	Article  *Article
	Articles []Article
}

// Build renders every article of cfg.DocsDir and the index into cfg.OutDir
// and copies cfg.StaticDir beside them. If any article has a problem, Build
// writes nothing and returns all the problems, each "file.md:LINE: message".
func Build(cfg Config) error {
	tmpl, err := template.New("page").Parse(pageTemplate)
	if err != nil {
		return fmt.Errorf("page template: %w", err)
	}
	articles, err := renderAll(cfg.DocsDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.OutDir, 0o755); err != nil {
		return err
	}
	for i := range articles {
		a := &articles[i]
		p := page{Title: a.Title, Summary: a.Summary, Article: a}
		if err := writePage(tmpl, filepath.Join(cfg.OutDir, a.Slug+".html"), p); err != nil {
			return err
		}
	}
	index := page{Title: "ParaPlay", Summary: "Distributed deep-learning training, explained with live simulations.", Articles: articles}
	if err := writePage(tmpl, filepath.Join(cfg.OutDir, "index.html"), index); err != nil {
		return err
	}
	if cfg.StaticDir == "" {
		return nil
	}
	return copyDir(cfg.OutDir, cfg.StaticDir)
}

// renderAll renders every *.md in dir, sorted as the index lists them: by
// Order, then Title, then Slug so that the order never depends on chance.
func renderAll(dir string) ([]Article, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no articles (*.md)", dir)
	}
	var articles []Article
	var errs []error
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		a, err := RenderArticle(name, src)
		errs = append(errs, err)
		articles = append(articles, a)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	sort.SliceStable(articles, func(i, j int) bool {
		a, b := articles[i], articles[j]
		if a.Order != b.Order {
			return a.Order < b.Order
		}
		if a.Title != b.Title {
			return a.Title < b.Title
		}
		return a.Slug < b.Slug
	})
	return articles, nil
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
