package collective

import "paraplay/sim/units"

// TorusAxisBytes is the bytes each chip receives along each axis (x, y, z)
// in the torus collective op of S bytes over g, as TorusSchedule runs it:
// in phase p part j (S/k bytes, k the spanned axes) is gathered along axis
// a = a(j,p) from blocks of b = S/(N·k) · Π_{i<p} n_{a(j,i)} bytes, and on
// a ring or a line alike every chip receives the n_a − 1 blocks of the
// others along that axis once, so
//
//	bytes_a = Σ_{j,p: a(j,p)=a} (n_a − 1) · b_{j,p};
//
// a reduce-scatter sends the same volumes backwards, and an all-reduce
// (reduce-scatter then all-gather) twice them. Axes the collective does
// not span carry nothing.
func TorusAxisBytes(op Op, g Grid, s units.Bytes) [3]float64 {
	var out [3]float64
	ax := g.spanned()
	k, n := len(ax), g.group()
	if k == 0 || n < 2 || s <= 0 {
		return out
	}
	for j := 0; j < k; j++ {
		b := float64(s) / float64(n*k)
		for p := 0; p < k; p++ {
			a := ax[(j+p)%k]
			out[a] += float64(g.Dims[a]-1) * b
			b *= float64(g.Dims[a])
		}
	}
	if op == OpAllReduce {
		for a := range out {
			out[a] *= 2
		}
	}
	return out
}
