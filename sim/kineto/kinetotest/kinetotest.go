// Package kinetotest finds the real profiler traces that tests of trace
// import read, and reads them.
//
// The traces (see the README beside them) live outside the repository, in
// ../shared/traces relative to its root; the project never copies them. A
// test that needs them skips with a message when they are absent, so a
// clean clone still passes. PARAPLAY_TRACES names another folder (a git
// worktree sits elsewhere).
package kinetotest

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/kineto"
)

// Dir is the folder of the shared traces; it skips t when it is missing.
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("PARAPLAY_TRACES")
	if dir == "" {
		root, err := repoRoot()
		if err != nil {
			t.Skipf("shared traces: %v", err)
		}
		dir = filepath.Join(root, "..", "shared", "traces")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared traces not found at %s (set PARAPLAY_TRACES or see ../shared/traces/README.md): %v", dir, err)
	}
	return dir
}

// Path is the path of the shared trace called name; it skips t when the
// folder or the file is missing.
func Path(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(Dir(t), name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared trace %s is missing: %v", name, err)
	}
	return p
}

// Read reads the shared trace called name with the default limits.
func Read(t testing.TB, name string) *kineto.Trace {
	t.Helper()
	f, err := os.Open(Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := Decompress(f, name)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := kineto.Read(r, name, kineto.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// Decompress gunzips r when name ends in .gz.
func Decompress(r io.Reader, name string) (io.Reader, error) {
	if !strings.HasSuffix(name, ".gz") {
		return r, nil
	}
	return gzip.NewReader(r)
}

// repoRoot is the folder holding go.mod, found upward from the test's
// working directory (its package's folder).
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
