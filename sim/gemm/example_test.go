package gemm_test

import (
	"fmt"

	"paraplay/sim/gemm"
	"paraplay/sim/hw"
)

// The same H100 runs a GPT-3-sized MLP GEMM near its ceiling, a small
// layer's at a fraction of it, and a decode step's matrix-vector product
// at the pace of its HBM.
func ExampleModel_Efficiency() {
	g, _ := hw.LookupGPU("h100-sxm")
	m, err := gemm.For(g)
	if err != nil {
		panic(err)
	}
	for _, c := range []struct {
		what string
		s    gemm.Shape
	}{
		{"MLP of a 12,288-wide model, 2,048 tokens", gemm.Shape{Batch: 1, M: 2048, N: 4 * 12288, K: 12288}},
		{"MLP of a 768-wide model, 2,048 tokens", gemm.Shape{Batch: 1, M: 2048, N: 4 * 768, K: 768}},
		{"decode: one token through 8192×8192", gemm.Shape{Batch: 1, M: 1, N: 8192, K: 8192}},
	} {
		e, _ := m.Efficiency(c.s, gemm.BF16)
		t, _ := m.Time(c.s, gemm.BF16)
		fmt.Printf("%-42s %6.1f µs  %4.1f%% of peak\n", c.what, t*1e6, 100*e)
	}
	fmt.Printf("ceiling: %.1f TFLOP/s of %.1f\n", m.Ceiling(gemm.BF16)/1e12, m.Peak(gemm.BF16)/1e12)
	// Output:
	// MLP of a 12,288-wide model, 2,048 tokens   3192.6 µs  78.3% of peak
	// MLP of a 768-wide model, 2,048 tokens        20.1 µs  48.7% of peak
	// decode: one token through 8192×8192          61.6 µs   0.2% of peak
	// ceiling: 794.5 TFLOP/s of 989.4
}
