package site

import (
	"reflect"
	"testing"
)

// TestTOCPlainText checks that the table of contents holds what a reader
// sees in a heading: the typographer's curly apostrophe and dash as
// characters (the page template escapes them once), emphasis without its
// markup.
func TestTOCPlainText(t *testing.T) {
	lib, err := LoadLibrary("testdata/render")
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("---\ntitle: T\n---\n\n## Don't wait -- *overlap*\n\ntext\n")
	a, err := RenderArticle("toc.md", src, lib)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range a.TOC {
		got = append(got, e.Text)
	}
	if want := []string{"Don’t wait – overlap"}; !reflect.DeepEqual(got, want) {
		t.Errorf("TOC = %q, want %q", got, want)
	}
}
