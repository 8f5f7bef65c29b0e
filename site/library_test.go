package site

import (
	"strings"
	"testing"
)

func TestCheckLink(t *testing.T) {
	tests := []struct {
		url, want string // want: "" or a part of the problem
	}{
		{"https://arxiv.org/abs/1802.05799", ""},
		{"http://example.org/paper.pdf", ""},
		{"HTTPS://example.org/", ""},
		{"references.html#ringar", ""},
		{"../docs/x.html", ""},
		{"javascript:alert(1)", `scheme "javascript" is not allowed`},
		{"JavaScript:alert(1)", `scheme "javascript" is not allowed`},
		{"java\tscript:alert(1)", "control characters"},
		{" javascript:alert(1)", "spaces"},
		{"data:text/html,<script>alert(1)</script>", `scheme "data" is not allowed`},
		{"vbscript:x", `scheme "vbscript" is not allowed`},
		{"file:///etc/passwd", `scheme "file" is not allowed`},
		{"mailto:a@b.c", `scheme "mailto" is not allowed`},
		{"//evil.example/x", "scheme-relative"},
		{"https:///nohost", "has no host"},
		{"https://exa mple.org", "spaces"},
		{"http://[::1", "is not a URL"},
	}
	for _, tt := range tests {
		got := checkLink(tt.url)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("checkLink(%q): got %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestParseReferencesDOI(t *testing.T) {
	tests := []struct {
		doi, want string
	}{
		{"10.1016/j.jpdc.2008.09.002", ""},
		{"10.1145/3458817.3476209", ""},
		{"https://doi.org/10.1/x", `doi "https://doi.org/10.1/x": want an id like`},
		{"10.1016/a b", `doi "10.1016/a b"`},
	}
	for _, tt := range tests {
		src := "- key: k\n  authors: [A]\n  title: T\n  year: 2020\n  doi: \"" + tt.doi + "\"\n"
		_, err := parseReferences("r.yaml", []byte(src))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("doi %q: got error %q, want %q", tt.doi, got, tt.want)
		}
	}
}

func TestRawHTMLWarnings(t *testing.T) {
	src := "---\ntitle: T\n---\n\nText.\n\n<div class=\"x\">\nhidden\n</div>\n\nSome <b>bold</b> and <https://example.org> and `<code>`.\n\n<!-- a note to myself -->\n\nInline <!-- note --> comment.\n\n```html\n<p>in a code block</p>\n```\n"
	a, err := RenderArticle("f.md", []byte(src), Library{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`f.md:7: raw HTML "<div class=\"x\">" is dropped`,
		`f.md:11: raw HTML "<b>" is dropped`,
		`f.md:11: raw HTML "</b>" is dropped`,
	}
	if len(a.Warnings) != len(want) {
		t.Fatalf("warnings: got %d %q, want %d", len(a.Warnings), a.Warnings, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(a.Warnings[i], w) {
			t.Errorf("warning %d: got %q, want it to start with %q", i, a.Warnings[i], w)
		}
	}
	if strings.Contains(string(a.Body), "<div") || strings.Contains(string(a.Body), "<b>") {
		t.Errorf("raw HTML reached the page: %s", a.Body)
	}
}

func TestBuildReportsRawHTMLWarnings(t *testing.T) {
	_, rep, err := buildSite(t, "-- a.md --\n---\ntitle: A\n---\n\n<span>x</span>\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) != 2 || !strings.Contains(rep.Warnings[0], "a.md:5: raw HTML \"<span>\" is dropped") {
		t.Errorf("report warnings: got %q, want the <span> and </span> on a.md:5", rep.Warnings)
	}
	if !strings.HasPrefix(rep.String(), "2 warnings; ") {
		t.Errorf("report: got %q, want it to start with the warnings", rep.String())
	}
}
