package workload

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// printedTolerance is how far an exact count may be from a published one:
// 1%, or half a unit of the last digit the source prints when that is
// larger (Narayanan et al. print 1.7 for a model of 1.65B parameters).
func printedTolerance(published float64) float64 {
	text := strconv.FormatFloat(published/1e9, 'f', -1, 64)
	decimals := 0
	if i := strings.IndexByte(text, '.'); i >= 0 {
		decimals = len(text) - i - 1
	}
	return math.Max(0.01*published, 0.5e9/math.Pow(10, float64(decimals)))
}

func TestPresetParamsMatchPublished(t *testing.T) {
	for _, m := range Models() {
		got := float64(Params(m).Total())
		tol := printedTolerance(m.PublishedParams)
		if math.Abs(got-m.PublishedParams) > tol {
			t.Errorf("%s: exact %.4gB parameters, published %.4gB: off by more than %.3gB", m.Name, got/1e9, m.PublishedParams/1e9, tol/1e9)
		}
		t.Logf("%-14s exact %16d  published %7.5gB  error %+.2f%%", m.Name, int64(got), m.PublishedParams/1e9, 100*(got/m.PublishedParams-1))
	}
}

// TestExactCountsOfReleasedCheckpoints pins the counts that the released
// weights hold (the sums of their tensor shapes), to the parameter.
func TestExactCountsOfReleasedCheckpoints(t *testing.T) {
	tests := []struct {
		name string
		want int64
	}{
		{"llama3-8b", 8_030_261_248},
		{"llama3-70b", 70_553_706_496},
		{"llama3-405b", 405_853_388_800},
		{"mixtral-8x7b", 46_702_792_704},
	}
	for _, tc := range tests {
		m, _ := LookupModel(tc.name)
		if got := Params(m).Total(); got != tc.want {
			t.Errorf("%s: got %d parameters, want %d", tc.name, got, tc.want)
		}
	}
}

// TestLlama3LayerByHand writes Llama 3 8B's tensors out one by one.
func TestLlama3LayerByHand(t *testing.T) {
	m, _ := LookupModel("llama3-8b")
	const h, kv, f, v = 4096, 8 * 128, 14336, 128256
	layer := int64(h*h + h*kv + h*kv + h*h + // q, k, v, o
		h*f + h*f + f*h + // gate, up, down
		h + h) // two RMSNorm weights
	p := Params(m)
	if p.PerLayer != layer {
		t.Errorf("per layer: got %d, want %d", p.PerLayer, layer)
	}
	if p.Embedding != v*h || p.Head != v*h || p.FinalNorm != h {
		t.Errorf("embedding %d, head %d, final norm %d; want %d, %d, %d", p.Embedding, p.Head, p.FinalNorm, v*h, v*h, h)
	}
}

func TestActiveParams(t *testing.T) {
	m, _ := LookupModel("mixtral-8x7b")
	got := float64(ActiveParams(m))
	// Jiang et al. 2024: "each token has access to 47B parameters, but only
	// uses 13B active parameters"; the Mixtral release gives 12.9B.
	if math.Abs(got-12.9e9) > 0.05e9 {
		t.Errorf("mixtral active parameters %.4gB, want 12.9B", got/1e9)
	}
	dense, _ := LookupModel("llama3-8b")
	if ActiveParams(dense) != Params(dense).Total() {
		t.Errorf("a dense model's active parameters must equal its total")
	}
}

// TestNarayananClosedForm expands Eq. 2 of Narayanan et al. 2021 term by
// term — l layers of QKV (3h²+3h), projection (h²+h), MLP (8h²+5h) and two
// LayerNorms (4h), plus (V+s)·h of embeddings — and checks the closed form
// against the sum, and the exact count of every GPT-style preset against
// the closed form plus the final LayerNorm it omits.
func TestNarayananClosedForm(t *testing.T) {
	for _, m := range Models() {
		if !m.IsGPTStyle() {
			continue
		}
		l, h, v, s := float64(m.Layers), float64(m.Hidden), float64(m.Vocab), float64(m.SeqLen)
		layer := (3*h*h + 3*h) + (h*h + h) + (8*h*h + 5*h) + 4*h
		want := l*layer + (v+s)*h
		got := NarayananParams(m.Layers, m.Hidden, m.Vocab, m.SeqLen)
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("%s: closed form %.0f, sum of terms %.0f", m.Name, got, want)
		}
		exact := float64(Params(m).Total())
		if exact != want+2*h {
			t.Errorf("%s: exact %.0f, want closed form + 2h = %.0f", m.Name, exact, want+2*h)
		}
	}
}

func TestStageParams(t *testing.T) {
	for _, m := range Models() {
		if got, want := StageParams(m, m.Layers, true, true, 1, 1), float64(Params(m).Total()); got != want {
			t.Errorf("%s: one stage holds %.0f, want all %.0f", m.Name, got, want)
		}
	}
	// Llama 3 8B, tensor parallel 8, four stages of 8 layers: per layer
	// (41,943,040 attention + 176,160,768 MLP)/8 + 8,192 of RMSNorm.
	m, _ := LookupModel("llama3-8b")
	layer := (41943040.0+176160768)/8 + 8192
	emb := 128256.0 * 4096 / 8
	tests := []struct {
		first, last bool
		want        float64
	}{
		{true, false, 8*layer + emb},
		{false, false, 8 * layer},
		{false, true, 8*layer + 4096 + emb},
	}
	for _, tc := range tests {
		if got := StageParams(m, 8, tc.first, tc.last, 8, 1); got != tc.want {
			t.Errorf("first=%v last=%v: got %.0f, want %.0f", tc.first, tc.last, got, tc.want)
		}
	}
	// Tied GPT: the last stage keeps a copy of the word embeddings.
	g, _ := LookupModel("gpt3-175b")
	last := StageParams(g, 12, false, true, 8, 1)
	mid := StageParams(g, 12, false, false, 8, 1)
	if got, want := last-mid, 2*12288.0+50257.0*12288/8; got != want {
		t.Errorf("tied head on the last stage: %.0f, want %.0f", got, want)
	}
	// Mixtral, expert parallel 8: one expert per GPU instead of eight.
	x, _ := LookupModel("mixtral-8x7b")
	expert := 3 * 4096 * 14336.0
	if got, want := StageParams(x, 1, false, false, 1, 1)-StageParams(x, 1, false, false, 1, 8), 7*expert; got != want {
		t.Errorf("expert parallel 8 saves %.0f per layer, want %.0f", got, want)
	}
}
