package scene

import (
	"image"
	"image/color"
	"math/bits"
)

// The GIF's bytes are written here rather than by image/gif: importing
// image/gif registers its decoder (image.RegisterFormat in its init), and
// the decoder with compress/lzw's reader and writer were about 26 KB of the
// gzipped wasm, which only ever encodes. The bytes are those image/gif's
// EncodeAll writes for the same frames (TestGIFBlocksAsImageGIF holds them
// equal), laid out as the GIF89a specification (CompuServe 1990) says: a
// header and logical screen descriptor with the global colour table, then
// per frame a graphic control extension, an image descriptor and the
// frame's LZW-compressed indices in sub-blocks of at most 255 bytes.

// gifDisposalNone is the disposal method "leave the frame in place".
const gifDisposalNone = 1

// gifTableSize is the exponent n of the colour table of 2^(n+1) entries
// that holds k colours.
func gifTableSize(k int) int {
	if k < 2 {
		return 0
	}
	return bits.Len(uint(k-1)) - 1
}

// appendGIFHeader appends the header, the logical screen descriptor of a
// w×h screen and the global colour table: pal's colours, padded with black
// to a power of two.
func appendGIFHeader(b []byte, w, h int, pal color.Palette) []byte {
	n := gifTableSize(len(pal))
	b = append(b, "GIF89a"...)
	b = append(b, byte(w), byte(w>>8), byte(h), byte(h>>8), 0x80|byte(n), 0, 0)
	for _, c := range pal {
		r, g, bl, _ := c.RGBA()
		b = append(b, byte(r>>8), byte(g>>8), byte(bl>>8))
	}
	for range 1<<(n+1) - len(pal) {
		b = append(b, 0, 0, 0)
	}
	return b
}

// gifTransparent is the index of pal's first fully transparent colour, or
// −1: the index a frame's graphic control extension names.
func gifTransparent(pal color.Palette) int {
	for i, c := range pal {
		if _, _, _, a := c.RGBA(); a == 0 {
			return i
		}
	}
	return -1
}

// lzwCodes is the most codes a GIF's LZW table holds (12-bit codes).
const lzwCodes = 1 << 12

// gifBlocks writes GIF image blocks. It keeps the LZW string table, a trie
// over the codes (each code's first child, each child's next sibling and
// the byte it appends), between frames: it is cleared, not reallocated.
type gifBlocks struct {
	first, next [lzwCodes]uint16
	lit         [lzwCodes]byte
}

// appendFrame appends img as one image block on the global colour table
// pal: a graphic control extension (delay in hundredths of a second,
// disposal "none", pal's transparent index if it has one), the image
// descriptor at img's bounds, and its indices compressed.
func (g *gifBlocks) appendFrame(b []byte, img *image.Paletted, delay int, pal color.Palette) []byte {
	flags := byte(gifDisposalNone << 2)
	t := gifTransparent(pal)
	if t >= 0 {
		flags |= 1
	}
	r := img.Rect
	b = append(b, 0x21, 0xf9, 4, flags, byte(delay), byte(delay>>8), byte(max(t, 0)), 0)
	b = append(b, 0x2c, byte(r.Min.X), byte(r.Min.X>>8), byte(r.Min.Y), byte(r.Min.Y>>8),
		byte(r.Dx()), byte(r.Dx()>>8), byte(r.Dy()), byte(r.Dy()>>8), 0)
	litWidth := max(2, gifTableSize(len(pal))+1)
	b = append(b, byte(litWidth))
	return g.compress(b, img, litWidth)
}

// lzwOut packs codes least significant bit first into sub-blocks: each
// holds up to 255 bytes after a length byte, and a 0 length ends them.
type lzwOut struct {
	b     []byte
	at    int // the current sub-block's length byte
	acc   uint32
	nbits int
}

func (o *lzwOut) code(c, width int) {
	o.acc |= uint32(c) << o.nbits
	o.nbits += width
	for o.nbits >= 8 {
		o.put(byte(o.acc))
		o.acc >>= 8
		o.nbits -= 8
	}
}

func (o *lzwOut) put(c byte) {
	o.b = append(o.b, c)
	if len(o.b)-o.at == 256 { // a full sub-block: start the next
		o.b[o.at] = 255
		o.at = len(o.b)
		o.b = append(o.b, 0)
	}
}

// end sends the last bits and closes the sub-blocks.
func (o *lzwOut) end() []byte {
	if o.nbits > 0 {
		o.put(byte(o.acc))
	}
	if n := len(o.b) - o.at - 1; n > 0 {
		o.b[o.at] = byte(n)
		o.b = append(o.b, 0)
	}
	return o.b
}

// compress appends img's indices, row by row, as GIF's variable-width LZW
// (Welch 1984, as the GIF specification adapts it): a clear code first;
// each longest string already in the table is sent as its code, and that
// string plus the next byte becomes the next code; the code width grows by
// a bit when the next code reaches a power of two, and when it would reach
// 4095 a clear code empties the table. The end code follows the last
// string.
func (g *gifBlocks) compress(b []byte, img *image.Paletted, litWidth int) []byte {
	clearCode, eof := 1<<litWidth, 1<<litWidth+1
	width, hi, overflow := litWidth+1, eof, 1<<(litWidth+1)
	o := lzwOut{b: append(b, 0), at: len(b)}
	o.code(clearCode, width)
	clear(g.first[:])
	// grow takes the next code; it reports false when the table was full
	// and is cleared instead.
	grow := func() bool {
		hi++
		if hi == overflow {
			width++
			overflow <<= 1
		}
		if hi == lzwCodes-1 {
			o.code(clearCode, width)
			width, hi, overflow = litWidth+1, eof, 1<<(litWidth+1)
			clear(g.first[:])
			return false
		}
		return true
	}
	code := -1
	r := img.Rect
	for y, i := r.Min.Y, 0; y < r.Max.Y; y, i = y+1, i+img.Stride {
		for _, x := range img.Pix[i : i+r.Dx()] {
			if code < 0 {
				code = int(x)
				continue
			}
			c := g.first[code]
			for c != 0 && g.lit[c] != x {
				c = g.next[c]
			}
			if c != 0 {
				code = int(c)
				continue
			}
			o.code(code, width)
			prev := code
			code = int(x)
			if grow() {
				g.lit[hi], g.next[hi], g.first[prev] = x, g.first[prev], uint16(hi)
			}
		}
	}
	if code >= 0 {
		o.code(code, width)
		grow()
	}
	o.code(eof, width)
	return o.end()
}
