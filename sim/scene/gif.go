package scene

import (
	"errors"
	"image"
	"image/color"
	"image/gif"
	"io"

	"paraplay/sim/units"
)

// GIFEncoder makes an animated GIF of a run one frame at a time, so that a
// caller can spread the work: the browser encodes a few frames between two
// animation frames and keeps the page responsive. Every frame is drawn by
// a Raster and mapped onto Palette without dithering (flat colours stay
// flat and compress well). A frame after the first keeps only the box of
// pixels that changed, with the unchanged ones inside it transparent, so a
// mostly still picture costs little.
//
// The output depends only on the run and the Animation: frame by frame or
// all at once, same bytes.
type GIFEncoder struct {
	f    *Frames
	a    Animation
	end  units.Time
	n    int
	r    *Raster
	pal  color.Palette
	lut  *paletteIndex
	prev []uint8 // the previous full frame, palette indices
	out  gif.GIF
}

// NewGIFEncoder checks a against the run and prepares to draw its frames.
func NewGIFEncoder(f *Frames, a Animation) (*GIFEncoder, error) {
	var end units.Time
	if f.tl != nil {
		end = f.tl.End
	}
	if err := a.Validate(end); err != nil {
		return nil, err
	}
	r, err := NewRaster()
	if err != nil {
		return nil, err
	}
	bg := f.Build(0, a.Options).Background
	pal := Palette(bg)
	return &GIFEncoder{f: f, a: a, end: end, n: a.FrameCount(end), r: r, pal: pal, lut: newPaletteIndex(pal)}, nil
}

// Frames is the total number of frames; Done how many are encoded.
func (e *GIFEncoder) Frames() int { return e.n }

// Done is the number of frames encoded so far.
func (e *GIFEncoder) Done() int { return len(e.out.Image) }

// Next draws and encodes the next frame. It returns false once every frame
// is done (or on an error, which Err reports).
func (e *GIFEncoder) Next() (bool, error) {
	k := len(e.out.Image)
	if k >= e.n {
		return false, nil
	}
	img, err := e.r.Draw(e.f.Build(e.a.FrameTime(k, e.end), e.a.Options))
	if err != nil {
		return false, err
	}
	e.out.Image = append(e.out.Image, e.frame(img))
	e.out.Delay = append(e.out.Delay, e.a.Delay(k, e.end))
	e.out.Disposal = append(e.out.Disposal, gif.DisposalNone)
	return k+1 < e.n, nil
}

// frame maps img onto the palette and, after the first frame, crops it to
// the pixels that changed.
func (e *GIFEncoder) frame(img *image.RGBA) *image.Paletted {
	b := img.Rect
	w, h := b.Dx(), b.Dy()
	cur := make([]uint8, w*h)
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < w; x++ {
			p := row[4*x:]
			cur[y*w+x] = e.lut.index(p[0], p[1], p[2])
		}
	}
	first := e.prev == nil
	prev := e.prev
	e.prev = cur
	if first {
		return &image.Paletted{Pix: cur, Stride: w, Rect: b, Palette: e.pal}
	}
	ch := changed(prev, cur, w, h)
	if ch.Empty() { // GIF frames cannot be empty: keep one transparent pixel
		ch = image.Rect(0, 0, 1, 1)
	}
	out := image.NewPaletted(ch, e.pal)
	for y := ch.Min.Y; y < ch.Max.Y; y++ {
		for x := ch.Min.X; x < ch.Max.X; x++ {
			i := y*w + x
			c := cur[i]
			if c == prev[i] {
				c = transparentIndex
			}
			out.Pix[(y-ch.Min.Y)*out.Stride+x-ch.Min.X] = c
		}
	}
	return out
}

// changed is the smallest box holding every pixel that differs.
func changed(prev, cur []uint8, w, h int) image.Rectangle {
	x0, y0, x1, y1 := w, h, -1, -1
	for y := 0; y < h; y++ {
		row, prow := cur[y*w:(y+1)*w], prev[y*w:(y+1)*w]
		for x := range row {
			if row[x] != prow[x] {
				x0, x1 = min(x0, x), max(x1, x)
				y0, y1 = min(y0, y), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		return image.Rectangle{}
	}
	return image.Rect(x0, y0, x1+1, y1+1)
}

// WriteTo writes the GIF once every frame is encoded; it loops forever.
func (e *GIFEncoder) WriteTo(w io.Writer) (int64, error) {
	if len(e.out.Image) < e.n {
		return 0, errors.New("scene: the GIF has frames left to encode")
	}
	img := e.out
	size := e.out.Image[0].Rect
	img.Config = image.Config{ColorModel: e.pal, Width: size.Dx(), Height: size.Dy()}
	cw := &countWriter{w: w}
	err := gif.EncodeAll(cw, &img)
	return cw.n, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// WriteGIF encodes the animation a of f as a GIF, calling progress (if not
// nil) after each frame with the frames done and the total.
func WriteGIF(w io.Writer, f *Frames, a Animation, progress func(done, total int)) error {
	e, err := NewGIFEncoder(f, a)
	if err != nil {
		return err
	}
	for {
		more, err := e.Next()
		if err != nil {
			return err
		}
		if progress != nil {
			progress(e.Done(), e.Frames())
		}
		if !more {
			break
		}
	}
	_, err = e.WriteTo(w)
	return err
}
