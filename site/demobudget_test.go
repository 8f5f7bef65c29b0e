package site

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/wasm/playground"
)

// TestDemosFitTheBrowsersBudget: every article's live demo (a sim block
// without a compare table, which is drawn at build time) runs in the
// reader's browser, so it must pass the browser's work budget
// (playground.CheckBudget), or the page shows "too large" instead.
func TestDemosFitTheBrowsersBudget(t *testing.T) {
	files, err := filepath.Glob("../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no articles: %v", err)
	}
	re := regexp.MustCompile("(?s)```sim\n(.*?)```")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(data, -1) {
			v, text, errs := splitView(m[1])
			if len(errs) > 0 || len(v.Compare) > 0 || v.Static {
				continue
			}
			s, err := scenario.Parse(text)
			if err != nil {
				continue // the site's own checks report it
			}
			if err := playground.CheckBudget(s); err != nil {
				t.Errorf("%s: %s: %v", f, s.Title(), err)
			}
		}
	}
}
