//go:build !js

package opgraph

import (
	"math"
	"testing"
)

// unetParams is the closed form of UNet3D's parameters without the batch
// norms, for first width c and L levels (geometric sums over the levels,
// not the builder's loop): the first convolution's 81c weights, the
// analysis path's 27c²·4^l (l ≥ 1) and 54c²·4^l, the synthesis path's
// (128 + 324 + 108)c²·4^l, the biases 3c(2^L − 1) + 4c(2^(L−1) − 1) + 3
// and the head's 6c.
func unetParams(c, L int64) int64 {
	geo := func(n int64) int64 { return (int64(math.Pow(4, float64(n))) - 1) / 3 } // Σ_{l<n} 4^l
	c2 := c * c
	w := 81*c + 27*c2*(geo(L)-1) + 54*c2*geo(L) + 560*c2*geo(L-1) + 6*c
	return w + 3*c*(1<<L-1) + 4*c*(1<<(L-1)-1) + 3
}

// unetMACs is the closed form of one sample's forward MACs on a side³
// volume V: V·(81c + 6c + c²·(27·Σ_{l=1}^{L−1} 2^−l + 54·Σ_{l<L} 2^−l +
// 448·Σ_{l<L−1} 2^−l)), level l having V/8^l voxels and c²·4^l-sized
// kernels.
func unetMACs(side, c, L int) float64 {
	half := func(n int) float64 { return 2 * (1 - math.Pow(0.5, float64(n))) } // Σ_{l<n} 2^−l
	v, cf := math.Pow(float64(side), 3), float64(c)
	return v * (87*cf + cf*cf*(27*(half(L)-1)+54*half(L)+448*half(L-1)))
}

// TestUNet3D holds UNet3D's parameters to Çiçek et al. 2016's published
// 19,069,955 (§2: "The architecture has 19069955 parameters in total";
// confirmed through two third-party quotes of the paper, a paper-notes
// file and a PyTorch reimplementation's comment) and, for other widths and
// depths, its parameters and FLOPs to their closed forms.
func TestUNet3D(t *testing.T) {
	for _, c := range []struct{ side, c, L int }{{128, 32, 4}, {64, 16, 3}, {256, 8, 5}, {32, 4, 2}, {64, 32, 6}} {
		g, err := UNet3D(c.side, c.c, c.L)
		if err != nil {
			t.Fatal(err)
		}
		var norms int64
		for _, o := range g.Ops {
			if o.Kind == BatchNorm {
				norms += o.Params()
			}
		}
		if got, want := g.Params()-norms, unetParams(int64(c.c), int64(c.L)); got != want {
			t.Errorf("%+v: %d parameters without the norms, want %d", c, got, want)
		}
		if got, want := float64(g.MACs()), unetMACs(c.side, c.c, c.L); math.Abs(got-want) > 1e-9*want {
			t.Errorf("%+v: %g MACs, want %g", c, got, want)
		}
		if g.Ops[len(g.Ops)-1].D != c.side {
			t.Errorf("%+v: the head's output is %d deep, want %d", c, g.Ops[len(g.Ops)-1].D, c.side)
		}
	}
	g, _ := UNet3D(128, 32, 4)
	var norms int64
	for _, o := range g.Ops {
		if o.Kind == BatchNorm {
			norms += o.Params()
		}
	}
	if got := g.Params() - norms; got != 19069955 {
		t.Errorf("Çiçek's 3D U-Net: %d parameters, the paper says 19,069,955", got)
	}
	t.Logf("3D U-Net at 128³: %d parameters (%d with the norms), %.1f GFLOPs forward", g.Params()-norms, g.Params(), 2*float64(g.MACs())/1e9)
}

// TestUNet3DErrors: each bad shape names its key.
func TestUNet3DErrors(t *testing.T) {
	for _, c := range []struct {
		side, c, L int
		key        string
	}{{100, 32, 4, "graph.volume"}, {4, 32, 4, "graph.volume"}, {1024, 32, 4, "graph.volume"}, {128, 0, 4, "graph.channels"},
		{128, 300, 4, "graph.channels"}, {128, 32, 1, "graph.levels"}, {128, 32, 7, "graph.levels"}} {
		_, err := UNet3D(c.side, c.c, c.L)
		if err == nil || err.Error()[:len(c.key)] != c.key {
			t.Errorf("UNet3D(%d, %d, %d) = %v, want an error naming %s", c.side, c.c, c.L, err, c.key)
		}
	}
}
