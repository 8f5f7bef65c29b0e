package site

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDocsOrderUnique checks that no two articles of docs/ share an order:
// the index would then fall back to sorting them by title, which is not
// the reading order anyone chose (three helpers once picked 16 at once).
func TestDocsOrderUnique(t *testing.T) {
	names, err := filepath.Glob("../docs/*.md")
	if err != nil || len(names) == 0 {
		t.Fatalf("no articles: %v", err)
	}
	seen := map[int]string{}
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fm, _, _, err := ParseFrontMatter(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if fm.Kind == KindPage { // standalone pages are not on the index
			continue
		}
		if other, ok := seen[fm.Order]; ok {
			t.Errorf("%s and %s both have order %d", filepath.Base(other), filepath.Base(name), fm.Order)
		}
		seen[fm.Order] = name
	}
}
