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
		"---\ntitle: T\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		a, err := RenderArticle("f.md", []byte(src), Library{})
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
