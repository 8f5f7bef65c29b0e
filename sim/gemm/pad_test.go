package gemm

import "testing"

// TestPad: a dimension pads up to a multiple of the MXU side, and not at
// all without one (a GPU).
func TestPad(t *testing.T) {
	for _, c := range []struct{ mxu, n, want int }{
		{256, 128, 256}, {256, 256, 256}, {256, 320, 512}, {128, 128, 128},
		{128, 64, 128}, {128, 192, 256}, {0, 128, 128}, {0, 100, 100},
	} {
		if got := (Params{MXU: c.mxu}).Pad(c.n); got != c.want {
			t.Errorf("MXU %d: Pad(%d) = %d, want %d", c.mxu, c.n, got, c.want)
		}
	}
}
