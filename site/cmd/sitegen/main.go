// Command sitegen builds ParaPlay's static site: it renders the articles in
// -docs, writes them and the index into -out, and copies -static beside
// them. Run it from the repository root:
//
//	go run ./site/cmd/sitegen -docs docs -out site/public
//
// A bad ```sim block fails the build with "file.md:LINE: message".
package main

import (
	"flag"
	"fmt"
	"os"

	"paraplay/site"
)

func main() {
	var cfg site.Config
	flag.StringVar(&cfg.DocsDir, "docs", "docs", "directory of the articles (*.md)")
	flag.StringVar(&cfg.OutDir, "out", "site/public", "output directory")
	flag.StringVar(&cfg.StaticDir, "static", "site/static", "directory copied verbatim into the output; empty for none")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "sitegen: unexpected arguments:", flag.Args())
		os.Exit(2)
	}
	if err := site.Build(cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		fmt.Fprintln(os.Stderr, "sitegen: build failed")
		os.Exit(1)
	}
	fmt.Printf("sitegen: wrote %s\n", cfg.OutDir)
}
