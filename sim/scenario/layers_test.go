package scenario

import (
	"slices"
	"testing"
)

// FuzzParseLayerCounts holds ParseLayerCounts to its bounds and to
// FormatLayerCounts: what it accepts formats back to the same counts.
func FuzzParseLayerCounts(f *testing.F) {
	for _, seed := range []string{"7,8*14,7", "1,2,3", "", "8*65536", "0", "-1", "1*", "*2", "4,4*2,4"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		counts, err := ParseLayerCounts(text)
		if err != nil {
			return
		}
		if len(counts) > MaxModelStages {
			t.Fatalf("%q: %d stages", text, len(counts))
		}
		for _, n := range counts {
			if n < 0 || n > MaxStageLayers {
				t.Fatalf("%q: a stage of %d layers", text, n)
			}
		}
		again, err := ParseLayerCounts(FormatLayerCounts(counts))
		if err != nil || !slices.Equal(again, counts) {
			t.Fatalf("%q: formatted as %q reads back as %v, %v", text, FormatLayerCounts(counts), again, err)
		}
	})
}
