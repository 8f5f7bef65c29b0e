//go:build !js

package scene

import (
	"image/png"
	"io"
)

// WritePNG rasterizes dl and writes it as a PNG image. The browser encodes
// its PNGs from the raster's pixels itself and leaves this out: importing
// image/png registers its decoder, which the wasm would carry for nothing
// (about 53 KB before compression).
func WritePNG(w io.Writer, dl DrawList) error {
	r, err := NewRaster()
	if err != nil {
		return err
	}
	img, err := r.Draw(dl)
	if err != nil {
		return err
	}
	return png.Encode(w, img)
}
