package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps its failures instead of stopping.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *recorder) Fatal(args ...any)                 { r.Errorf("%s", fmt.Sprint(args...)) }

func TestFirstDiff(t *testing.T) {
	for _, c := range []struct{ got, want, diff string }{
		{"a\nb\nc", "a\nx\nc", "line 2:\n got: b\nwant: x"},
		{"a\nb", "a\nb\nc", "lengths differ: got 2 lines, want 3"},
		{"", "a", "line 1:\n got: \nwant: a"},
	} {
		if got := FirstDiff(c.got, c.want); got != c.diff {
			t.Errorf("FirstDiff(%q, %q) = %q, want %q", c.got, c.want, got, c.diff)
		}
	}
}

func TestCheck(t *testing.T) {
	if *update {
		t.Skip("the package's own test writes no golden file")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		got  string
		want string // a substring of the one failure, or "" for none
	}{
		{"one\ntwo\n", ""},
		{"one\nthree\n", "line 2:\n got: three\nwant: two"},
	} {
		r := &recorder{TB: t}
		Check(r, path, []byte(c.got))
		switch {
		case c.want == "" && len(r.failures) != 0:
			t.Errorf("Check(%q): failures %q, want none", c.got, r.failures)
		case c.want != "" && (len(r.failures) != 1 || !strings.Contains(r.failures[0], c.want) || !strings.Contains(r.failures[0], path)):
			t.Errorf("Check(%q): failures %q, want one naming %s and saying %q", c.got, r.failures, path, c.want)
		}
	}
	r := &recorder{TB: t}
	Check(r, filepath.Join(dir, "missing.txt"), nil)
	if len(r.failures) != 1 || !strings.Contains(r.failures[0], "-update") {
		t.Errorf("missing golden file: failures %q, want one saying how to create it", r.failures)
	}
}

func TestCheckUpdate(t *testing.T) {
	defer func(was bool) { *update = was }(*update)
	*update = true
	path := filepath.Join(t.TempDir(), "new", "x.txt")
	Check(t, path, []byte("fresh\n"))
	if b, err := os.ReadFile(path); err != nil || string(b) != "fresh\n" {
		t.Errorf("after -update: %q, %v; want the file written", b, err)
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.txt", "a.txt", "c.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &recorder{TB: t}
	got := Files(r, filepath.Join(dir, "*.txt"))
	if want := []string{filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")}; fmt.Sprint(got) != fmt.Sprint(want) || len(r.failures) != 0 {
		t.Errorf("Files: %q, failures %q; want %q", got, r.failures, want)
	}
	r = &recorder{TB: t}
	Files(r, filepath.Join(dir, "*.md"))
	if len(r.failures) != 1 || !strings.Contains(r.failures[0], "no file matches") {
		t.Errorf("empty glob: failures %q, want one", r.failures)
	}
}
