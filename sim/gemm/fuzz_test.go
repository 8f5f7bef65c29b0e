package gemm

import (
	"math"
	"testing"
)

// FuzzParseMeasurements: any input is read or refused, never a panic, and
// what is read is a valid shape with a positive finite rate.
func FuzzParseMeasurements(f *testing.F) {
	f.Add([]byte("h100-sxm 1 256 256 256 6721641025641 6026298850574 -\n"))
	f.Add([]byte("# comment\n\nb200 4 4096 4096 4096 1e15 - 3e15\n"))
	f.Add([]byte("x 0 1 1 1 1 1 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, err := ParseMeasurements(data)
		if err != nil {
			return
		}
		for _, m := range ms {
			if m.Shape.Validate() != nil || !(m.FLOPS > 0) || math.IsInf(m.FLOPS, 0) || !m.DType.valid() {
				t.Fatalf("parsed an invalid measurement %+v", m)
			}
		}
	})
}

// FuzzTime: every valid shape on every catalogued GPU gets a positive,
// finite time, at an efficiency no higher than the GPU's ceiling.
func FuzzTime(f *testing.F) {
	f.Add(uint8(0), 1, 256, 256, 256, uint8(0))
	f.Add(uint8(3), 4, 4096, 1, 65536, uint8(3))
	cat := Catalog()
	f.Fuzz(func(t *testing.T, gi uint8, b, m, n, k int, di uint8) {
		p := cat[int(gi)%len(cat)]
		mod := model(t, p.GPU)
		s, d := Shape{b, m, n, k}, DType(di%uint8(numDTypes))
		tm, err := mod.Time(s, d)
		if err != nil {
			if s.Validate() == nil && mod.Peak(d) > 0 {
				t.Fatalf("%s %v %s: %v", p.GPU, s, d, err)
			}
			return
		}
		e := s.FLOPs() / tm / mod.Peak(d)
		if !(tm > 0) || math.IsInf(tm, 0) || e > mod.Ceiling(d)/mod.Peak(d)*(1+1e-12) {
			t.Fatalf("%s %v %s: time %v s, efficiency %v", p.GPU, s, d, tm, e)
		}
	})
}

func FuzzParseDType(f *testing.F) {
	for _, s := range []string{"bf16", " FP8 ", "int4", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDType(s)
		if err == nil && !d.valid() {
			t.Fatalf("ParseDType(%q) = %v", s, d)
		}
		if err == nil {
			if again, _ := ParseDType(d.String()); again != d {
				t.Fatalf("%q → %v → %v", s, d, again)
			}
		}
	})
}
