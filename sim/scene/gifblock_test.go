package scene

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"math/rand/v2"
	"testing"
)

// imageGIF is what image/gif writes for img as the one frame of a file on
// a w×h screen with the global colour table pal: the header (up to the end
// of the colour table) and the frame's blocks (without the trailer).
func imageGIF(t *testing.T, img *image.Paletted, delay, w, h int, pal color.Palette) (head, frame []byte) {
	t.Helper()
	var one bytes.Buffer
	err := gif.EncodeAll(&one, &gif.GIF{Image: []*image.Paletted{img}, Delay: []int{delay},
		Disposal: []byte{gif.DisposalNone}, Config: image.Config{ColorModel: pal, Width: w, Height: h}})
	if err != nil {
		t.Fatal(err)
	}
	b := one.Bytes()
	n := 13
	if packed := b[10]; packed&0x80 != 0 {
		n += 3 << (packed&7 + 1)
	}
	return b[:n], b[n : len(b)-1]
}

// TestGIFBlocksAsImageGIF holds gifblock.go's header and frames to
// image/gif's bytes: palettes of 1 to 256 colours with and without a
// transparent one, frames flat, striped and noisy (noise of 256 colours
// fills the LZW table and clears it many times over), cropped with an
// offset, read through a stride wider than the frame, and delays past 255.
func TestGIFBlocksAsImageGIF(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var g gifBlocks
	for _, n := range []int{1, 2, 3, 4, 5, 16, 17, 100, 255, 256} {
		for _, transparent := range []bool{false, true} {
			pal := make(color.Palette, n)
			for i := range pal {
				pal[i] = color.NRGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
			}
			if transparent {
				pal[rng.IntN(n)] = color.NRGBA{}
			}
			for _, fill := range []string{"flat", "stripes", "noise", "runs"} {
				w, h := 1+rng.IntN(300), 1+rng.IntN(200)
				full := image.NewPaletted(image.Rect(0, 0, w, h), pal)
				for i := range full.Pix {
					switch fill {
					case "flat":
						full.Pix[i] = uint8(n - 1)
					case "stripes":
						full.Pix[i] = uint8((i / 7) % n)
					case "noise":
						full.Pix[i] = uint8(rng.IntN(n))
					case "runs":
						if i == 0 || rng.IntN(40) == 0 {
							full.Pix[i] = uint8(rng.IntN(n))
						} else {
							full.Pix[i] = full.Pix[i-1]
						}
					}
				}
				crop := image.Rect(rng.IntN(w), rng.IntN(h), w, h)
				sub := full.SubImage(crop).(*image.Paletted) // stride wider than the crop
				for _, img := range []*image.Paletted{full, sub} {
					delay := rng.IntN(70000)
					head, frame := imageGIF(t, img, delay, w, h, pal)
					if got := appendGIFHeader(nil, w, h, pal); !bytes.Equal(got, head) {
						t.Errorf("%d colours, %d×%d: header\n%x\nwant (image/gif)\n%x", n, w, h, got, head)
					}
					if got := g.appendFrame(nil, img, delay, pal); !bytes.Equal(got, frame) {
						t.Errorf("%d colours (transparent %v), %s %v in %d×%d: frame of %d bytes differs from image/gif's %d",
							n, transparent, fill, img.Rect, w, h, len(got), len(frame))
					}
				}
			}
		}
	}
}
