package scene_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"paraplay/sim/scene"
)

// checkGoldenSVG writes dl as SVG and compares it with testdata/file.
func checkGoldenSVG(t *testing.T, file string, dl scene.DrawList) {
	t.Helper()
	var buf bytes.Buffer
	if err := scene.WriteSVG(&buf, dl); err != nil {
		t.Fatalf("%s: WriteSVG: %v", file, err)
	}
	checkGolden(t, filepath.Join("testdata", file), buf.Bytes())
}

// checkGolden compares got with the golden file at path, or rewrites the
// file when the tests run with -update (the flag svg_test.go defines).
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if flag.Lookup("update").Value.(flag.Getter).Get().(bool) {
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
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; diff with go test -update && git diff", filepath.Base(path))
	}
}
