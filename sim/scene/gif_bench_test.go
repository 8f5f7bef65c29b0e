package scene_test

import (
	"bytes"
	"testing"

	"paraplay/sim/scene"
)

// BenchmarkGIFTraining exports Llama 3 8B on 16 GPUs at 800×450, 15 fps,
// four times the browser's speed (about 30 frames).
func BenchmarkGIFTraining(b *testing.B) {
	tl := simulate(b, "llama3-8b-2x8.yaml", "")
	f := scene.NewFrames(tl)
	a := scene.Animation{Options: scene.Options{Width: 800, Height: 450}, FPS: 15, Speed: 4}
	for b.Loop() {
		if err := scene.WriteGIF(&bytes.Buffer{}, f, a, nil); err != nil {
			b.Fatal(err)
		}
	}
}
