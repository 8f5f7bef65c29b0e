package site

import (
	"html/template"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/golden"
)

// TestRenderGolden renders every testdata/render/*.md and compares the body
// with the .html beside it. Review changes with git diff after -update.
func TestRenderGolden(t *testing.T) {
	names := golden.Files(t, "testdata/render/*.md")
	lib, err := LoadLibrary("testdata/render")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		t.Run(filepath.Base(name), func(t *testing.T) {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			a, err := RenderArticle(name, src, lib)
			if err != nil {
				t.Fatalf("RenderArticle: %v", err)
			}
			// Math is typeset at the end of a build; here as plain TeX.
			plain, _ := PlainMath(a.Math)
			a.Body = template.HTML(fillMath(string(a.Body), plain))
			golden.Check(t, strings.TrimSuffix(name, ".md")+".html", []byte(a.Body))
		})
	}
}

func TestRenderArticleFrontMatter(t *testing.T) {
	src := "---\ntitle: Ring\nsummary: \"A: b\"\norder: 3\n---\nHello.\n"
	a, err := RenderArticle("docs/ring.md", []byte(src), Library{})
	if err != nil {
		t.Fatal(err)
	}
	want := FrontMatter{Title: "Ring", Summary: "A: b", Order: 3, Kind: KindArticle}
	if !reflect.DeepEqual(a.FrontMatter, want) || a.Slug != "ring" {
		t.Errorf("got %+v slug %q, want %+v slug ring", a.FrontMatter, a.Slug, want)
	}
	if got := string(a.Body); got != "<p>Hello.</p>\n" {
		t.Errorf("body: got %q", got)
	}
}

// TestRenderErrors checks that every problem names the file, the line in
// the Markdown file, and (for scenarios) the field.
func TestRenderErrors(t *testing.T) {
	const fm = "---\ntitle: T\n---\n" // body starts on line 4
	tests := []struct {
		name, file, src string
		want            []string // each must appear in the error
	}{
		{"unknown field", "a.md", fm + "Text.\n\n```sim\ngpus: 4\nlink:\n  bandwith: 1GB/s\n```\n",
			[]string{"a.md:9: sim block: link.bandwith: unknown key"}},
		{"bad value", "a.md", fm + "```sim\ncollective:\n  size: lots\n```\n",
			[]string{"a.md:6: sim block: collective.size: invalid size"}},
		{"out of range has no line from Parse", "a.md", fm + "\n\n```sim\nname: x\ngpus: 100\n```\n",
			[]string{"a.md:8: sim block: gpus: is 100; allowed 1..64"}},
		{"two bad blocks", "b.md", fm + "```sim\ngpus: 65\n```\n\n```sim\nseed: -1\n```\n",
			[]string{"b.md:5: sim block: gpus:", "b.md:9: sim block: seed:"}},
		{"yaml syntax", "c.md", fm + "```sim\ngpus: 4\n  link: [\n```\n",
			[]string{"c.md:", "sim block: not valid YAML"}},
		{"not a mapping", "c.md", fm + "```sim\n- 1\n```\n",
			[]string{"c.md:5: sim block: the scenario must be a mapping"}},
		{"no title", "d.md", "---\nsummary: s\n---\nx\n", []string{"d.md:1: front matter: title is required"}},
		{"unknown front matter key", "e.md", "---\ntitle: T\nauthor: me\n---\n", []string{"e.md:3: front matter: author: unknown key"}},
		{"bad order", "e.md", "---\ntitle: T\norder: first\n---\n", []string{"e.md:3: front matter: order: want a whole number"}},
		{"unclosed front matter", "f.md", "---\ntitle: T\n", []string{"f.md:1: front matter: no closing"}},
		{"front matter yaml syntax", "g.md", "---\ntitle: T\nx: [\n---\n", []string{"g.md:", "front matter:"}},
		{"reserved slug", "docs/index.md", fm, []string{"docs/index.md:1: file name"}},
		{"bad slug", "docs/Ring AllReduce.md", fm, []string{"file name must be lower-case"}},
		{"unknown citation", "i.md", fm + "Text.\n\nAs shown [@nobody; @ringar].\n", []string{`i.md:6: citation: unknown reference key "nobody"`}},
		{"unknown idea", "i.md", "---\ntitle: T\nideas: [nobody]\n---\n", []string{`i.md:1: front matter: ideas: unknown reference key "nobody"`}},
		{"unknown view option", "j.md", fm + "```sim\ngpus: 4\nview:\n  zoom: 2\n```\n", []string{"j.md:7: sim block: view.zoom: unknown option"}},
		{"bad view value", "j.md", fm + "```sim\nview:\n  poster: soon\n  hide: [gpus]\ngpus: 4\n```\n", []string{"j.md:6: sim block: view.poster:", "j.md:7: sim block: view.hide:"}},
		{"scenario error after view keeps its line", "j.md", fm + "```sim\nview:\n  height: 300\ngpus: 65\n```\n", []string{"j.md:7: sim block: gpus: is 65"}},
		{"poster after the end", "j.md", fm + "```sim\nview:\n  poster: 10s\n```\n", []string{"j.md:4: sim block: view.poster: 10s is after the end"}},
		{"bad math", "k.md", fm + "Inline $\\frac{1}{$ math.\n", nil},
		{"crlf line endings", "h.md", strings.ReplaceAll(fm+"```sim\ngpus: 0\n```\n", "\n", "\r\n"),
			[]string{"h.md:5: sim block: gpus: is 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lib := Library{Refs: map[string]Reference{"ringar": {Key: "ringar", Authors: []string{"P"}, Title: "T", Year: 2009}}}
			_, err := RenderArticle(tt.file, []byte(tt.src), lib)
			if tt.want == nil {
				return // renders; see TestBuildBadMath for typesetting errors
			}
			if err == nil {
				t.Fatalf("got no error, want %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got error\n%v\nwant it to contain %q", err, w)
				}
			}
		})
	}
}
