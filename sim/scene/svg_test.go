package scene

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/golden"
	"paraplay/sim/units"
)

// goldenInstants are the frames of the 4-GPU ring kept as golden SVGs: the
// forward pass, the first reduce-scatter step halfway, and the last
// all-gather step three quarters through.
var goldenInstants = []struct {
	file string
	at   units.Time
}{
	{"ring4_forward.svg", 1 * ms},
	{"ring4_reduce_scatter.svg", 6*ms + 250*units.Microsecond},
	{"ring4_all_gather.svg", 8*ms + 875*units.Microsecond},
}

func TestGoldenSVG(t *testing.T) {
	tl := ringTimeline(4)
	for _, g := range goldenInstants {
		var buf bytes.Buffer
		if err := WriteSVG(&buf, Build(tl, g.at, Options{})); err != nil {
			t.Fatalf("%s: WriteSVG: %v", g.file, err)
		}
		golden.Check(t, filepath.Join("testdata", g.file), buf.Bytes())
	}
}

// TestSVGIsXML decodes every token, so a stray '<' or '&' in a title fails.
func TestSVGIsXML(t *testing.T) {
	tl := ringTimeline(4)
	tl.Title = `<Ring & "friends"> 'α' ` + "\x01"
	tl.GPUs[2].Name = "GPU <2>"
	for _, at := range []units.Time{0, 7 * ms, tl.End} {
		var buf bytes.Buffer
		if err := WriteSVG(&buf, Build(tl, at, Options{})); err != nil {
			t.Fatal(err)
		}
		svg := buf.String()
		dec := xml.NewDecoder(strings.NewReader(svg))
		var elems, texts int
		for {
			tok, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("t=%v: SVG is not XML: %v", at, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				elems++
				if se.Name.Local == "text" {
					texts++
				}
			}
		}
		if elems < 20 || texts < 10 {
			t.Errorf("t=%v: %d elements, %d texts; want a full picture", at, elems, texts)
		}
		if !strings.Contains(svg, "&lt;Ring &amp;") {
			t.Errorf("t=%v: title not escaped", at)
		}
	}
}

func TestWriteSVGElements(t *testing.T) {
	dl := DrawList{Width: 100, Height: 50.5, Background: Color{255, 255, 255, 255}, Items: []Item{
		{ID: "r", Shape: Rect, X: 1.005, Y: -0.001, W: -10, H: 4, Fill: Color{1, 2, 3, 128}, Stroke: Color{0, 0, 0, 255}, StrokeWidth: 1.5},
		{ID: "l", Shape: Line, X: 0, Y: 0, X2: 10, Y2: 20.126, Stroke: Color{255, 0, 0, 255}, StrokeWidth: 2},
		{ID: "t", Shape: Text, X: 5, Y: 6, Text: "a<b", Size: 12, Fill: Color{0, 0, 0, 255}, Anchor: AnchorEnd, Bold: true},
		{ID: "n", Shape: Rect, W: 1, H: 1},
	}}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, dl); err != nil {
		t.Fatal(err)
	}
	want := `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50.5" viewBox="0 0 100 50.5">
<rect width="100%" height="100%" fill="#ffffff"/>
<rect data-id="r" x="-9" y="0" width="10" height="4" fill="#010203" fill-opacity="0.502" stroke="#000000" stroke-width="1.5"/>
<line data-id="l" x1="0" y1="0" x2="10" y2="20.13" stroke="#ff0000" stroke-width="2" stroke-linecap="round"/>
<text data-id="t" x="5" y="6" font-size="12" font-family="system-ui,sans-serif" fill="#000000" text-anchor="end" font-weight="bold">a&lt;b</text>
<rect data-id="n" x="0" y="0" width="1" height="1" fill="none"/>
</svg>
`
	if got := buf.String(); got != want {
		t.Errorf("WriteSVG:\n got:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteSVGRejectsNonFinite(t *testing.T) {
	tests := []DrawList{
		{Width: math.NaN(), Height: 10},
		{Width: 10, Height: 10, Items: []Item{{ID: "x", Shape: Line, X2: math.Inf(-1)}}},
	}
	for i, dl := range tests {
		var buf bytes.Buffer
		if err := WriteSVG(&buf, dl); err == nil || buf.Len() != 0 {
			t.Errorf("case %d: err %v, %d bytes written; want an error and no output", i, err, buf.Len())
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteSVGReportsWriteError(t *testing.T) {
	if err := WriteSVG(failWriter{}, Build(ringTimeline(4), 0, Options{})); err == nil {
		t.Errorf("WriteSVG to a failing writer returned nil")
	}
}

func TestFormatNum(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{{0, "0"}, {-0.001, "0"}, {1.5, "1.5"}, {2.005, "2"}, {100, "100"}, {-3.456, "-3.46"}, {1e-7, "0"}}
	for _, tc := range tests {
		if got := formatNum(tc.v, 2); got != tc.want {
			t.Errorf("formatNum(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestEscapedMatchesEncodingXML pins the SVG writer's own escaper to
// encoding/xml's EscapeText, which it replaces to keep encoding/xml out of
// the wasm.
func TestEscapedMatchesEncodingXML(t *testing.T) {
	for _, s := range []string{"", "plain", `a<b>&"c'`, "tab\tnl\ncr\r", "bad\xffutf8", "nul\x00ctl\x01", "é 中 𝔸", "\uFFFE\uFFFF", "\xed\xa0\x80"} {
		checkEscaped(t, s)
	}
}

func FuzzEscaped(f *testing.F) {
	f.Add(`a<b>&"c'` + "\t\x00\xff")
	f.Fuzz(checkEscaped)
}

func checkEscaped(t *testing.T, s string) {
	var want bytes.Buffer
	xml.EscapeText(&want, []byte(s))
	var got bytes.Buffer
	w := bufio.NewWriter(&got)
	svgWriter{w}.escaped(s)
	w.Flush()
	if got.String() != want.String() {
		t.Errorf("escaped(%q) = %q, want %q (encoding/xml)", s, got.String(), want.String())
	}
}
