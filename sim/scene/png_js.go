package scene

import (
	"errors"
	"io"
)

// WritePNG is left out of the browser build, which encodes its PNGs from
// the raster's pixels itself (png.go says why): here it only says so.
func WritePNG(io.Writer, DrawList) error {
	return errors.New("scene: WritePNG is not in the browser build; rasterize with NewRaster and encode the pixels")
}
