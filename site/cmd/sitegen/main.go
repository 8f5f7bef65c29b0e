// Command sitegen builds ParaPlay's static site: it renders the articles in
// -docs, writes them, the index, references, glossary and playground pages,
// the demos' posters, the validation gallery (its simulations run here)
// and the stylesheets into -out, typesets the math with
// the KaTeX package in -katex, copies -static beside them, checks every
// link and that nothing loads from outside the site, and prints a report.
// Run it from the repository root:
//
//	go run ./site/cmd/sitegen -docs docs -out site/public
//
// A bad ```sim block or an unknown citation key fails the build with
// "file.md:LINE: message".
package main

import (
	"flag"
	"fmt"
	"os"

	"paraplay/sim/validate"
	"paraplay/site"
)

func main() {
	var cfg site.Config
	flag.StringVar(&cfg.DocsDir, "docs", "docs", "directory of the articles (*.md), references.yaml and glossary.yaml")
	flag.StringVar(&cfg.OutDir, "out", "site/public", "output directory")
	flag.StringVar(&cfg.StaticDir, "static", "", "directory copied verbatim into the output; empty for none")
	flag.StringVar(&cfg.KaTeXDir, "katex", "site/node_modules/katex", "the KaTeX npm package (npm ci in site/); empty leaves math as plain TeX")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "sitegen: unexpected arguments:", flag.Args())
		os.Exit(2)
	}
	if cfg.KaTeXDir != "" {
		if _, err := os.Stat(cfg.KaTeXDir); err != nil {
			fmt.Fprintf(os.Stderr, "sitegen: KaTeX not found at %s; run (cd site && npm ci)\n", cfg.KaTeXDir)
			os.Exit(1)
		}
	}
	// The gallery's simulations run here, once, rather than in site.Build,
	// whose tests build the site many times.
	rows, err := validate.Rows()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sitegen:", err)
		os.Exit(1)
	}
	gallery := validate.Run(rows, validate.Kinds())
	cfg.Gallery = &gallery
	rep, err := site.Build(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		fmt.Fprintln(os.Stderr, "sitegen: build failed")
		os.Exit(1)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintln(os.Stderr, "warning:", w)
	}
	fmt.Printf("sitegen: wrote %s: %v\n", cfg.OutDir, rep)
}
