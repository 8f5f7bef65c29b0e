package fault

import (
	"math"
	"strings"
	"testing"
)

// The catalog groups the 18 rows of Table 5 of the Llama 3 report; its
// counts must add up to the report's 419 and its hardware share to ~78%.
func TestCausesMatchTheLlama3Census(t *testing.T) {
	total, hardware := 0, 0
	for _, c := range Causes {
		total += c.Llama3
		if c.NodeLost && c.Name != "host" {
			hardware += c.Llama3
		}
	}
	if total != Llama3Interruptions {
		t.Errorf("catalog counts add up to %d, want %d", total, Llama3Interruptions)
	}
	if got := float64(hardware) / float64(total); math.Abs(got-0.78) > 0.01 {
		t.Errorf("hardware share = %.3f, want the report's ≈0.78", got)
	}
	c, _ := CauseByName("hbm3")
	if got := float64(c.Llama3) / 419; math.Abs(got-0.172) > 0.0005 {
		t.Errorf("HBM3 share = %.4f, want Table 5's 17.2%%", got)
	}
}

func TestLlama3Rate(t *testing.T) {
	// 419 / (54 days × 2048 nodes): one job failure every ~3.09 h.
	mtbfHours := 24 / (Llama3RatePerNodeDay * 2048)
	if math.Abs(mtbfHours-3.093) > 0.001 {
		t.Errorf("job MTBF = %.4f h, want 54·24/419 ≈ 3.093 h", mtbfHours)
	}
}

func TestParseMix(t *testing.T) {
	m, err := ParseMix(DefaultMix)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != DefaultMix {
		t.Errorf("String() = %q, want %q", got, DefaultMix)
	}
	fr := m.Fractions()
	if math.Abs(fr[0]-190.0/419) > 1e-12 {
		t.Errorf("gpu fraction = %v, want 190/419", fr[0])
	}
	for _, bad := range []struct{ in, want string }{
		{"", "want cause:weight"}, {"gpu", "want cause:weight"}, {"gpu:x", "invalid weight"},
		{"gpu:-1", "invalid weight"}, {"gpu:NaN", "invalid weight"}, {"gremlin:1", "unknown cause"},
		{"gpu:1,gpu:2", "more than once"}, {"gpu:0,hbm3:0", "add up to 0"}, {"gpu:1e10", "invalid weight"},
	} {
		if _, err := ParseMix(bad.in); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseMix(%q) = %v, want an error containing %q", bad.in, err, bad.want)
		}
	}
}

func FuzzParseMix(f *testing.F) {
	for _, s := range []string{DefaultMix, "gpu:1", "software:0.5,hbm3:2", "gpu:", ":1", "gpu:1e9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMix(s)
		if err != nil {
			return
		}
		sum := 0.0
		for _, x := range m.Fractions() {
			if !(x >= 0 && x <= 1) {
				t.Fatalf("ParseMix(%q): fraction %v outside 0..1", s, x)
			}
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("ParseMix(%q): fractions add up to %v", s, sum)
		}
		back, err := ParseMix(m.String())
		if err != nil || back.String() != m.String() {
			t.Errorf("round trip of %q: %v, %v", s, back, err)
		}
	})
}
