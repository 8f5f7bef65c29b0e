package gemm

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/hw"
)

// TestClosedForms pins the model's limits against their closed forms.
func TestClosedForms(t *testing.T) {
	h100 := model(t, "h100-sxm")
	p, _ := Lookup("h100-sxm")
	g, _ := hw.LookupGPU("h100-sxm")
	hbm := float64(g.HBMBandwidth) * p.HBMEfficiency
	for _, c := range []struct {
		name string
		s    Shape
		d    DType
		want float64 // seconds
		tol  float64 // relative
		why  string
	}{
		{
			// A tiny GEMM: every term but the launch is nanoseconds.
			name: "tiny", s: Shape{1, 16, 16, 16}, d: BF16,
			want: p.Launch, tol: 0.25, why: "launch-bound",
		},
		{
			// A decode-step matrix-vector product: 16384×16384 bf16
			// weights (512 MiB) read once; the multiply-adds are far
			// cheaper than the bytes.
			name: "gemv", s: Shape{1, 1, 16384, 16384}, d: BF16,
			want: p.Launch + (16384*16384*2+16384*2+16384*2)/hbm, tol: 1e-12,
			why: "launch + bytes / (HBM bandwidth · η)",
		},
		{
			// A huge square GEMM: 128×128 tiles give 16,384 tiles, 125
			// waves of 132 SMs (124.12 needed), each at the ceiling rate;
			// the per-tile overhead adds 0.93 µs to each 89.2 µs tile.
			name: "huge square", s: Shape{1, 16384, 16384, 16384}, d: BF16,
			want: p.Launch + 125*(2*128*128*16384/(h100.Ceiling(BF16)/132)+p.TileOverhead), tol: 1e-9,
			why: "waves × (tile FLOPs / per-SM ceiling + tile overhead)",
		},
	} {
		got, err := h100.Time(c.s, c.d)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got/c.want-1) > c.tol {
			t.Errorf("%s %v: Time = %.6g s, want %.6g s (%s) within %g", c.name, c.s, got, c.want, c.why, c.tol)
		}
	}
}

// TestHugeSquareApproachesCeiling: as a square GEMM grows, its efficiency
// climbs to the GPU's maximum achievable fraction of peak and never past.
func TestHugeSquareApproachesCeiling(t *testing.T) {
	for _, name := range []string{"h100-sxm", "b200", "a100-sxm-80gb", "mi300x"} {
		m := model(t, name)
		ceiling := m.Ceiling(BF16) / m.Peak(BF16)
		prev := 0.0
		for _, n := range []int{256, 1024, 4096, 16384, 65536} {
			e, err := m.Efficiency(Shape{1, n, n, n}, BF16)
			if err != nil {
				t.Fatal(err)
			}
			if e < prev || e > ceiling {
				t.Errorf("%s n=%d: efficiency %.4f, want between %.4f (n/4) and the ceiling %.4f", name, n, e, prev, ceiling)
			}
			prev = e
		}
		if prev < 0.97*ceiling {
			t.Errorf("%s 65536³: efficiency %.4f, want within 3%% of the ceiling %.4f", name, prev, ceiling)
		}
	}
}

// TestWaveQuantization: on the 132-SM H100, a GEMM of exactly one wave of
// 256×128 tiles (12 × 11 = 132) costs about one tile time. One column more
// makes 144 tiles: a second wave, unless K is split so finely that the
// extra wave is short; the best split, 8, runs ⌈144·8/132⌉ = 9 waves of
// eighth-tiles, 1.125× the time for 0.07% more work.
func TestWaveQuantization(t *testing.T) {
	m := model(t, "h100-sxm")
	one, _ := m.Time(Shape{1, 256 * 12, 128 * 11, 16384}, BF16)
	more, _ := m.Time(Shape{1, 256 * 12, 128*11 + 1, 16384}, BF16)
	if r := more / one; r < 1.12 || r > 1.2 {
		t.Errorf("one wave %.4g s, one column more %.4g s: ratio %.3f, want 1.12 to 1.2 (9 waves of split-8 tiles)", one, more, r)
	}
}

// TestDTypesAndErrors: the fp8 peak is twice bf16's where there is one,
// and a dtype without tensor cores or a bad shape is a clear error.
func TestDTypesAndErrors(t *testing.T) {
	h100, a100, v100 := model(t, "h100-sxm"), model(t, "a100-sxm-80gb"), model(t, "v100-sxm")
	if got, want := h100.Peak(FP8), 2*h100.Peak(BF16); got != want {
		t.Errorf("h100 fp8 peak %v, want %v", got, want)
	}
	big := Shape{1, 8192, 8192, 8192}
	t8, _ := h100.Time(big, FP8)
	t16, _ := h100.Time(big, BF16)
	if r := t16 / t8; r < 1.5 || r > 2 {
		t.Errorf("h100 8192³: bf16/fp8 time ratio %.3f, want 1.5 to 2 (fp8 peak 2×, ceiling 0.709 vs 0.803)", r)
	}
	for _, c := range []struct {
		m    *Model
		s    Shape
		d    DType
		want string
	}{
		{a100, big, FP8, "no fp8"},
		{v100, big, BF16, "no bf16"},
		{h100, Shape{0, 1, 1, 1}, BF16, "batch = 0"},
		{h100, Shape{1, 1, maxDim + 1, 1}, BF16, "n = 16777217"},
		{h100, big, DType(9), "dtype 9"},
	} {
		_, err := c.m.Time(c.s, c.d)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Time(%v, %v) error %v, want it to say %q", c.s, c.d, err, c.want)
		}
	}
	if _, err := Time(hw.GPU{Name: "mystery"}, big, BF16); err == nil || !strings.Contains(err.Error(), "h100-sxm") {
		t.Errorf("unknown GPU: error %v should list the known ones", err)
	}
}

// TestDependsOnlyOnShapeDTypeAndGPU is the "no per-model constant"
// line. The API takes a GPU, a shape and a dtype and nothing else; a
// shape is four dimensions; the answer is the same whatever the order of
// calls and whatever a scenario sets on the GPU beyond its datasheet (the
// catalog's assumed training efficiency, its server, its link).
func TestDependsOnlyOnShapeDTypeAndGPU(t *testing.T) {
	if got, want := reflect.TypeOf(Time).String(), "func(hw.GPU, gemm.Shape, gemm.DType) (float64, error)"; got != want {
		t.Errorf("Time is %s, want %s", got, want)
	}
	var fields []string
	for _, f := range reflect.VisibleFields(reflect.TypeOf(Shape{})) {
		fields = append(fields, f.Name+" "+f.Type.String())
	}
	if got, want := strings.Join(fields, ", "), "Batch int, M int, N int, K int"; got != want {
		t.Errorf("Shape has %s, want %s", got, want)
	}
	shapes := []Shape{{1, 256, 256, 256}, {4, 4096, 1024, 512}, {1, 1, 8192, 8192}, {1, 8192, 28672, 8192}}
	for _, g := range hw.GPUs() {
		first := map[Shape]float64{}
		for _, s := range shapes {
			first[s], _ = Efficiency(g, s, FP16)
		}
		other := g
		other.Efficiency, other.EfficiencyBasis, other.Link, other.Server, other.GPUsPerNode = 0.123, "a paper", "pcie3", "x", 1
		for i := len(shapes) - 1; i >= 0; i-- {
			model(t, "b200") // another GPU's model in between changes nothing
			got, err := Efficiency(other, shapes[i], FP16)
			if err != nil {
				t.Fatal(err)
			}
			if got != first[shapes[i]] {
				t.Errorf("%s %v: efficiency %v, then %v with other run settings", g.Name, shapes[i], first[shapes[i]], got)
			}
		}
	}
}

// TestCatalogCoversHW: every hw GPU has valid GEMM parameters, and the
// dtype rates times the hw peak give the datasheet figures.
func TestCatalogCoversHW(t *testing.T) {
	for _, g := range hw.GPUs() {
		p, err := Lookup(g.Name)
		if err != nil {
			t.Errorf("%s: %v", g.Name, err)
			continue
		}
		if err := p.Validate(); err != nil {
			t.Error(err)
		}
	}
	if n, m := len(Catalog()), len(hw.GPUs()); n != m {
		t.Errorf("catalog has %d entries, hw %d GPUs", n, m)
	}
	for _, c := range []struct {
		gpu  string
		d    DType
		want float64 // datasheet dense FLOP/s
	}{
		{"h100-sxm", FP8, 1979e12}, {"h100-sxm", TF32, 494.7e12}, {"b200", FP8, 4.5e15},
		{"b200", TF32, 1.125e15}, {"mi300x", FP8, 2614.9e12}, {"mi300x", TF32, 653.7e12},
		{"a100-sxm-80gb", TF32, 156e12}, {"h100-pcie", FP8, 1513e12}, {"v100-sxm", FP16, 125e12},
	} {
		if got := model(t, c.gpu).Peak(c.d); math.Abs(got/c.want-1) > 0.001 {
			t.Errorf("%s %s peak %.4g, datasheet %.4g", c.gpu, c.d, got, c.want)
		}
	}
}

func TestParamsValidateNamesFields(t *testing.T) {
	err := Params{GPU: "x", Rate: [numDTypes]float64{BF16: 1}, HBMEfficiency: 2}.Validate()
	for _, want := range []string{"sms", "ceiling[bf16]", "balance[bf16]", "hbm efficiency"} { // citations: TestCatalogCites
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not name %s", err, want)
		}
	}
}

// TestCatalogSorted: the static table stays sorted by GPU name, one entry
// per name, as Catalog promises.
func TestCatalogSorted(t *testing.T) {
	c := Catalog()
	for i := 1; i < len(c); i++ {
		if c[i-1].GPU >= c[i].GPU {
			t.Errorf("catalog[%d] %q before catalog[%d] %q: want strictly sorted names", i-1, c[i-1].GPU, i, c[i].GPU)
		}
	}
}
