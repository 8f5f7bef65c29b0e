package gemm

import (
	"testing"

	"paraplay/sim/hw"
)

// BenchmarkTime prices a mix of training-sized shapes on an H100 through a
// Model built once, as a caller pricing many ops would.
func BenchmarkTime(b *testing.B) {
	m := model(b, "h100-sxm")
	shapes := []Shape{{1, 8192, 28672, 8192}, {1, 8192, 8192, 1024}, {32, 2048, 2048, 128}, {1, 1, 8192, 8192}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := m.Time(shapes[i%len(shapes)], BF16); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTimeWithLookup is the package-level Time, which looks the GPU's
// parameters up in the catalog on every call.
func BenchmarkTimeWithLookup(b *testing.B) {
	g, err := hw.LookupGPU("h100-sxm")
	if err != nil {
		b.Fatal(err)
	}
	s := Shape{1, 8192, 28672, 8192}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Time(g, s, BF16); err != nil {
			b.Fatal(err)
		}
	}
}
