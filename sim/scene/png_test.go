//go:build !js

package scene

import (
	"bytes"
	"image/png"
	"testing"
)

func TestWritePNGDecodes(t *testing.T) {
	var buf bytes.Buffer
	if err := WritePNG(&buf, Build(ringTimeline(4), 7*ms, Options{Width: 320, Height: 200})); err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 320 || cfg.Height != 200 {
		t.Errorf("PNG is %d×%d, want 320×200", cfg.Width, cfg.Height)
	}
}
