package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Check compares got with the golden file at path byte for byte; with
// -update it writes got to path instead. A mismatch fails t with the file's
// name and the first line that differs.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	CheckWith(t, path, got, func(got, want []byte) error {
		if bytes.Equal(got, want) {
			return nil
		}
		return fmt.Errorf("%s", FirstDiff(string(got), string(want)))
	})
}

// CheckWith is [Check] with a comparison of its own, for outputs that may
// differ within a tolerance (images): same reports whether got matches the
// golden contents want, or how it does not. With -update it writes got.
func CheckWith(t testing.TB, path string, got []byte, same func(got, want []byte) error) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if err := same(got, want); err != nil {
		t.Errorf("%s differs from the golden file; run go test -update and review git diff\n%v", path, err)
	}
}

// Files returns the files matching the glob pattern, sorted, and fails t
// at once when there is none: a golden test with no cases tests nothing.
func Files(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatalf("golden: bad pattern %q: %v", pattern, err)
	}
	if len(files) == 0 {
		t.Fatalf("golden: no file matches %s; the golden cases are missing", pattern)
	}
	slices.Sort(files)
	return files
}

// FirstDiff describes the first line where got and want differ, with its
// number, or how their lengths differ when one is a prefix of the other.
func FirstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("lengths differ: got %d lines, want %d", len(g), len(w))
}
