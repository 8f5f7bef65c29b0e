package scene

import (
	"bytes"
	"errors"
	"image"
	"image/color"
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
// Each frame is compressed as soon as it is drawn, and only its compressed
// bytes are kept (or, through WriteGIF, written at once): memory holds the
// canvas and two frames of palette indices, not the whole animation.
//
// The output depends only on the run and the Animation: frame by frame or
// all at once, same bytes, those image/gif's EncodeAll gives the frames
// (gifblock.go writes them).
type GIFEncoder struct {
	f         *Frames
	a         Animation
	end       units.Time
	n, done   int
	r         *Raster
	pal       color.Palette
	lut       *paletteIndex
	prev, cur []uint8 // the previous and this full frame, palette indices
	crop      []uint8 // the changed box's pixels, reused
	sink      io.Writer
	out       bytes.Buffer // the encoded file so far, without a sink
	blocks    *gifBlocks   // the LZW tables
	buf       []byte       // the frame's bytes, reused
	err       error
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
	return &GIFEncoder{f: f, a: a, end: end, n: a.FrameCount(end), r: r, pal: pal, lut: newPaletteIndex(pal),
		blocks: &gifBlocks{}}, nil
}

// Frames is the total number of frames; Done how many are encoded.
func (e *GIFEncoder) Frames() int { return e.n }

// Done is the number of frames encoded so far.
func (e *GIFEncoder) Done() int { return e.done }

// Next draws and encodes the next frame. It returns false once every frame
// is done (or on an error, which it returns, and returns again after).
func (e *GIFEncoder) Next() (bool, error) {
	if e.err != nil {
		return false, e.err
	}
	k := e.done
	if k >= e.n {
		return false, nil
	}
	img, err := e.r.Draw(e.f.Build(e.a.FrameTime(k, e.end), e.a.Options))
	if err == nil {
		err = e.encode(e.frame(img), e.a.Delay(k, e.end), k == 0)
	}
	if err != nil {
		e.err = err
		return false, err
	}
	e.done++
	return k+1 < e.n, nil
}

// encode compresses one frame and writes it on: the file's header and
// palette (and, for an animation, its loop forever) before the first.
func (e *GIFEncoder) encode(img *image.Paletted, delay int, first bool) error {
	w := e.sink
	if w == nil {
		w = &e.out
	}
	if first {
		if _, err := w.Write(appendGIFHeader(e.buf[:0], img.Rect.Dx(), img.Rect.Dy(), e.pal)); err != nil {
			return err
		}
		if e.n > 1 { // the NETSCAPE2.0 application extension: loop count 0, forever
			if _, err := w.Write([]byte("\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")); err != nil {
				return err
			}
		}
	}
	e.buf = e.blocks.appendFrame(e.buf[:0], img, delay, e.pal)
	_, err := w.Write(e.buf)
	return err
}

// screen is the animation's full size, the first frame's.
func (e *GIFEncoder) screen() image.Rectangle {
	return image.Rect(0, 0, e.r.img.Rect.Dx(), e.r.img.Rect.Dy())
}

// frame maps img onto the palette and, after the first frame, crops it to
// the pixels that changed. The result is valid until the next call.
func (e *GIFEncoder) frame(img *image.RGBA) *image.Paletted {
	b := img.Rect
	w, h := b.Dx(), b.Dy()
	if len(e.cur) != w*h {
		e.cur = make([]uint8, w*h)
	}
	cur := e.cur
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < w; x++ {
			p := row[4*x:]
			cur[y*w+x] = e.lut.index(p[0], p[1], p[2])
		}
	}
	first := e.prev == nil
	prev := e.prev
	e.prev, e.cur = cur, prev // the next frame draws over the one before
	if first {
		return &image.Paletted{Pix: cur, Stride: w, Rect: b, Palette: e.pal}
	}
	ch := changed(prev, cur, w, h)
	if ch.Empty() { // GIF frames cannot be empty: keep one transparent pixel
		ch = image.Rect(0, 0, 1, 1)
	}
	cw := ch.Dx()
	if cap(e.crop) < cw*ch.Dy() {
		e.crop = make([]uint8, cw*ch.Dy())
	}
	out := &image.Paletted{Pix: e.crop[:cw*ch.Dy()], Stride: cw, Rect: ch, Palette: e.pal}
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
	if e.done < e.n || e.sink != nil {
		return 0, errors.New("scene: the GIF has frames left to encode")
	}
	cw := &countWriter{w: w}
	_, err := cw.Write(e.out.Bytes())
	if err == nil {
		_, err = cw.Write([]byte{gifTrailer})
	}
	return cw.n, err
}

// gifTrailer ends a GIF file.
const gifTrailer = 0x3b

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
// nil) after each frame with the frames done and the total. Each frame is
// written to w as soon as it is encoded; a failing w stops the encoding
// and its error is returned.
func WriteGIF(w io.Writer, f *Frames, a Animation, progress func(done, total int)) error {
	e, err := NewGIFEncoder(f, a)
	if err != nil {
		return err
	}
	e.sink = w
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
	_, err = w.Write([]byte{gifTrailer})
	return err
}
