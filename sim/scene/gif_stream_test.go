package scene

import (
	"bytes"
	"errors"
	"image/gif"
	"strings"
	"testing"
)

// TestGIFIsEncodeAllsFile holds the frame-by-frame file to the one
// image/gif's EncodeAll makes of the same frames, delays and disposals
// (decoded from it): cutting each frame out of a one-frame file must not
// change a byte. An animation of one frame has no loop extension.
func TestGIFIsEncodeAllsFile(t *testing.T) {
	for _, a := range []Animation{
		{Options: Options{Width: 200, Height: 125}, FPS: 10, Speed: 1},
		{Options: Options{Width: 64, Height: 64}, FPS: 1, Speed: 0.01, To: 1}, // one frame
	} {
		var got bytes.Buffer
		if err := WriteGIF(&got, NewFrames(ringTimeline(4)), a, nil); err != nil {
			t.Fatal(err)
		}
		g, err := gif.DecodeAll(bytes.NewReader(got.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := gif.EncodeAll(&want, g); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d frames: streamed GIF (%d bytes) differs from EncodeAll's (%d bytes)", len(g.Image), got.Len(), want.Len())
		}
	}
}

// failAfter accepts n bytes, then fails as a full disk does, counting the
// writes it refused.
type failAfter struct{ n, refused int }

var errFull = errors.New("no space left on device")

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		w.refused++
		return 0, errFull
	}
	w.n -= len(p)
	return len(p), nil
}

func TestGIFStopsOnAFailingWriter(t *testing.T) {
	a := Animation{Options: Options{Width: 200, Height: 125}, FPS: 10, Speed: 1}
	for _, n := range []int{0, 10, 5000} {
		frames, total := 0, 0
		w := &failAfter{n: n}
		err := WriteGIF(w, NewFrames(ringTimeline(4)), a, func(d, t int) { frames, total = d, t })
		if !errors.Is(err, errFull) {
			t.Errorf("writer failing after %d bytes: got %v, want %v", n, err, errFull)
		}
		if w.refused != 1 || frames >= total && total > 0 {
			t.Errorf("writer failing after %d bytes: %d writes refused, %d of %d frames reported; want the first refusal to stop it", n, w.refused, frames, total)
		}
	}
}

func TestGIFFrameAreaIsBounded(t *testing.T) {
	tests := []struct {
		w, h float64
		ok   bool
	}{
		{8192, 8192, true},
		{16384, 4096, true},
		{16384, 16384, false},
		{8193, 8192, false},
	}
	for _, tt := range tests {
		err := Animation{Options: Options{Width: tt.w, Height: tt.h}, FPS: 1, Speed: 1}.Validate(1e6)
		if got := err == nil; got != tt.ok {
			t.Errorf("%v×%v: Validate = %v, want ok %v", tt.w, tt.h, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "8192×8192") {
			t.Errorf("%v×%v: %v lacks the limit", tt.w, tt.h, err)
		}
	}
}
