package scene_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"paraplay/sim/golden"
	"paraplay/sim/scene"
)

// checkGoldenSVG writes dl as SVG and compares it with testdata/file.
func checkGoldenSVG(t *testing.T, file string, dl scene.DrawList) {
	t.Helper()
	var buf bytes.Buffer
	if err := scene.WriteSVG(&buf, dl); err != nil {
		t.Fatalf("%s: WriteSVG: %v", file, err)
	}
	golden.Check(t, filepath.Join("testdata", file), buf.Bytes())
}
