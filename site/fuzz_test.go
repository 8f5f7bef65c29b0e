package site

import (
	"regexp"
	"strings"
	"testing"
)

// errLine is the shape of every problem RenderArticle reports.
var errLine = regexp.MustCompile(`^f\.md:\d+: `)

// FuzzRender feeds arbitrary files to RenderArticle: it must never panic,
// and every error line must name the file and a line number.
func FuzzRender(f *testing.F) {
	for _, seed := range []string{
		"",
		"---\ntitle: T\n---\nHello\n",
		"---\ntitle: T\nsummary: s\norder: 2\n---\n# H\n\n```sim\ngpus: 8\nlink:\n  latency: 10us\n```\n",
		"---\ntitle: [\n---\n",
		"---\n---\n```sim\ngpus: x\n```",
		"---\r\ntitle: T\r\n---\r\n```sim\r\n- a\r\n```\r\n",
		"```sim\n{gpus: 4, collective: {size: 1B}}\n```\n",
		"```sim\nstrategy: collective\ngpus: 4\nview:\n  sweep: [1KiB, 1MiB]\n  compare:\n    - {label: ring, set: \"algo=ring\"}\n    - {label: tree, set: \"algo=tree\"}\n```\n",
		"---\ntitle: T\n",
		"---\ntitle: T\n---\n<div>\nx\n</div>\n\nA <b>b</b> <!-- c --> <https://x.org>\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		a, err := RenderArticle("f.md", []byte(src), Library{})
		for _, w := range a.Warnings {
			if !errLine.MatchString(w) {
				t.Fatalf("warning does not start with f.md:LINE: %q", w)
			}
		}
		if err == nil {
			if a.Title == "" {
				t.Fatalf("no error but no title for %q", src)
			}
			return
		}
		// Messages may span lines (a YAML error quoting input); each
		// problem starts on a line of its own with file:line.
		first := strings.SplitN(err.Error(), "\n", 2)[0]
		if !errLine.MatchString(first) {
			t.Fatalf("error does not start with f.md:LINE: %q", err)
		}
	})
}

// libraryErrLine is the shape of every problem the library's parsers
// report: the file, and a line number unless YAML itself failed.
var libraryErrLine = regexp.MustCompile(`^r\.yaml(:\d+)?: `)

// FuzzReferences feeds arbitrary files to parseReferences: it must never
// panic, every error line must name the file, and a file it accepts may
// only link to http(s) or inside the site.
func FuzzReferences(f *testing.F) {
	for _, seed := range []string{
		"",
		"- key: ringar\n  authors: [Pitch Patarasuk, Xin Yuan]\n  title: T\n  year: 2009\n  doi: 10.1016/j.jpdc.2008.09.002\n",
		"- key: a\n  authors: [A]\n  title: T\n  year: 2020\n  url: javascript:alert(1)\n",
		"- key: a\n  authors: [A]\n  title: T\n  year: 2020\n  url: \"java\\tscript:x\"\n",
		"- key: a\n  authors: [A]\n  title: T\n  year: 2020\n  url: references.html#x\n  titel: typo\n",
		"- key: a\n  authors: [A]\n  title: T\n  year: 2020\n  arxiv: \"1802.05799\"\n  excluded: off-topic\n",
		"{key: a}",
		"- [1, 2]\n- key: b\n  year: x\n",
		"- &a {key: a, authors: [A], title: T, year: 2020, url: 'https://x.org'}\n- *a\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		refs, err := parseReferences("r.yaml", []byte(src))
		if err != nil {
			for line := range strings.SplitSeq(err.Error(), "\n") {
				if strings.HasPrefix(line, "r.yaml") && !libraryErrLine.MatchString(line) {
					t.Fatalf("error line does not start with r.yaml[:LINE]: %q", line)
				}
			}
			if !libraryErrLine.MatchString(err.Error()) {
				t.Fatalf("error does not start with r.yaml[:LINE]: %q", err)
			}
			return
		}
		for _, r := range refs {
			l := strings.ToLower(r.Link())
			if !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "http://") && checkLink(r.Link()) != "" {
				t.Fatalf("accepted reference %q links to %q", r.Key, r.Link())
			}
			if r.Key == "" || r.Title == "" || len(r.Authors) == 0 {
				t.Fatalf("accepted an incomplete reference %+v", r)
			}
		}
	})
}

// FuzzGlossary feeds arbitrary files to parseGlossary: no panic, errors
// name the file, and an accepted glossary is complete and sorted.
func FuzzGlossary(f *testing.F) {
	for _, seed := range []string{
		"",
		"- term: all-reduce\n  also: [allreduce]\n  definition: Everyone ends with the sum.\n",
		"- term: ring\n  definition: d\n- term: Ring\n  definition: e\n",
		"- term: ring\n  definiton: d\n",
		"- term: \n  definition: d\n",
		"term: x",
		"- [a]\n- also: {x: 1}\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		terms, err := parseGlossary("r.yaml", []byte(src))
		if err != nil {
			if !libraryErrLine.MatchString(err.Error()) {
				t.Fatalf("error does not start with r.yaml[:LINE]: %q", err)
			}
			return
		}
		for i, term := range terms {
			if term.Term == "" || term.Definition == "" {
				t.Fatalf("accepted an incomplete term %+v", term)
			}
			if i > 0 && strings.ToLower(terms[i-1].Term) > strings.ToLower(term.Term) {
				t.Fatalf("not sorted: %q before %q", terms[i-1].Term, term.Term)
			}
		}
	})
}
