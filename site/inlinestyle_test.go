package site

import (
	"strings"
	"testing"
)

func TestInlineStylesRewrite(t *testing.T) {
	s := newInlineStyles()
	tests := []struct{ in, want string }{
		{`<span class="strut" style="height:0.6944em;"></span>`, `<span class="strut ks-`},
		{`<span style="margin-right:0.2222em;">x</span>`, `<span class="ks-`},
		{`<span style="">x</span>`, `<span>x</span>`},
		{`<span class="a">no style</span>`, `<span class="a">no style</span>`},
		{`<svg width="1em" style="top:-1em"><path d="M0"/></svg>`, `<svg class="ks-`},
	}
	for _, tt := range tests {
		got, err := s.rewrite(tt.in)
		if err != nil {
			t.Fatalf("rewrite(%q): %v", tt.in, err)
		}
		if !strings.HasPrefix(got, tt.want) || strings.Contains(got, "style=") {
			t.Errorf("rewrite(%q): got %q, want it to start with %q and have no style attribute", tt.in, got, tt.want)
		}
	}
	a, _ := s.rewrite(`<span style="height:1em">`)
	b, _ := s.rewrite(`<i style="height:1em">`)
	if strings.TrimPrefix(a, "<span") != strings.TrimPrefix(b, "<i") {
		t.Errorf("one declaration, two classes: %q and %q", a, b)
	}
	css := string(s.css())
	for _, w := range []string{"{height:0.6944em !important;}", "{margin-right:0.2222em !important;}", "{top:-1em !important;}"} {
		if !strings.Contains(css, w) {
			t.Errorf("css lacks %q:\n%s", w, css)
		}
	}
	if _, err := s.rewrite(`<span style="color:red}body{display:none">`); err == nil {
		t.Error("a style that breaks out of its rule was accepted")
	}
}
