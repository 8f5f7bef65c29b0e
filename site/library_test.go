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
