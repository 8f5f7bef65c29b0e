package inference

import (
	"math"
	"runtime"
	"testing"

	"paraplay/sim/gemm"
	"paraplay/sim/hw"
	"paraplay/sim/operators"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

func opModel(t testing.TB, gpu string) (*OpModel, hw.GPU) {
	t.Helper()
	g, err := hw.LookupGPU(gpu)
	if err != nil {
		t.Fatal(err)
	}
	o, err := NewOpModel(g)
	if err != nil {
		t.Fatal(err)
	}
	return o, g
}

// achievable is the HBM bandwidth the op model streams at: the
// datasheet's times the GEMM model's fitted η.
func achievable(t testing.TB, g hw.GPU) float64 {
	p, err := gemm.Lookup(g.Name)
	if err != nil {
		t.Fatal(err)
	}
	return float64(g.HBMBandwidth) * p.HBMEfficiency
}

// TestOpDecodeTendsToWeightsOverBandwidth: as the batch goes to one, a
// decode step of a large model is its weights over the achievable HBM
// bandwidth plus one launch per kernel (12 a Llama layer, the embedding
// lookup, the final norm and the logits), and nothing else of note.
func TestOpDecodeTendsToWeightsOverBandwidth(t *testing.T) {
	// The A100's GEMM fit charges 6.8 µs per output tile (fitted on large
	// shapes, where an unhidden epilogue costs that), which leaves its
	// skinny decode GEMMs a hair compute-bound: held to 2%, not 0.5%, and
	// not to the memory-bound flag (a known gap of the fit).
	for _, tc := range []struct {
		gpu, model string
		tol        float64
		bound      bool
	}{{"h100-sxm", "llama3-70b", 0.005, true}, {"a100-sxm-80gb", "llama3-70b", 0.02, false}, {"h100-sxm", "llama3-8b", 0.005, true}} {
		o, g := opModel(t, tc.gpu)
		m, err := workload.LookupModel(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		st := Stage{Model: m, Layers: m.Layers, First: true, Last: true, TP: 1, GPU: g}
		c, err := o.Decode(st, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		kernels := 12*m.Layers + 3
		floor := float64(st.ReadWeightBytes()) / achievable(t, g)
		want := floor + float64(kernels)*operators.DefaultLaunchOverhead.Seconds()
		if c.Kernels != kernels {
			t.Errorf("%s on %s: %d kernels, want 12·%d + 3 = %d", tc.model, tc.gpu, c.Kernels, m.Layers, kernels)
		}
		if got := c.Time.Seconds(); math.Abs(got/want-1) > tc.tol {
			t.Errorf("%s on %s, batch 1: step %.4f s, want weights/(η·HBM) + kernels·launch = %.4f + %.4f s within %g%%",
				tc.model, tc.gpu, got, floor, want-floor, 100*tc.tol)
		}
		if tc.bound && !c.MemoryBound() {
			t.Errorf("%s on %s, batch 1: not memory bound: %+v", tc.model, tc.gpu, c)
		}
	}
}

// TestOpPrefillAtGEMMEfficiency: a long prefill of Llama 3 70B is its
// GEMMs' FLOPs over the peak at each GEMM's own efficiency (asked of
// sim/gemm directly, shape by shape) plus the causal attention at the
// fused kernel's efficiency. The memory-bound kernels between them add
// their bytes (7% here, most of it the unfused SwiGLU activation's 0.7 GB a
// layer), and the launches a little: under 10% in all.
func TestOpPrefillAtGEMMEfficiency(t *testing.T) {
	o, g := opModel(t, "h100-sxm")
	m, err := workload.LookupModel("llama3-70b")
	if err != nil {
		t.Fatal(err)
	}
	const p = 4096
	h, kv, f := m.Hidden, m.KVHeadCount()*m.HeadDim(), m.FFNWidth()
	var want float64
	for _, s := range []gemm.Shape{
		{Batch: 1, M: p, N: h + 2*kv, K: h}, {Batch: 1, M: p, N: h, K: h}, {Batch: 1, M: p, N: 2 * f, K: h}, {Batch: 1, M: p, N: h, K: f}} {
		e, err := gemm.Efficiency(g, s, gemm.BF16)
		if err != nil {
			t.Fatal(err)
		}
		want += float64(m.Layers) * s.FLOPs() / (g.PeakFLOPS * e)
	}
	attn := operators.Attention{Batch: 1, Heads: m.Heads, KVHeads: m.KVHeadCount(), QueryLen: p, KeyLen: p, HeadDim: m.HeadDim(), Causal: true}
	want += float64(m.Layers) * 2 * p * p * float64(h) / (g.PeakFLOPS * operators.FlashEfficiency(attn, 794.5/989.4))
	st := Stage{Model: m, Layers: m.Layers, First: true, Last: true, TP: 1, GPU: g}
	c, err := o.Prefill(st, 1, p)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Time.Seconds(); got < want || got > 1.10*want {
		t.Errorf("prefill of %d tokens: %.4f s, want the GEMMs and attention at their efficiencies, %.4f s, to 10%% above", p, got, want)
	}
	if c.MemoryBound() {
		t.Errorf("a 4K-token prefill is memory bound: %+v", c)
	}
}

// TestOpChunkedPrefill: a prefill longer than PrefillChunk runs its weight
// math chunk by chunk (the weights read once a chunk), so its dense part
// is the chunks' sum, and its attention is one kernel over the prompt.
func TestOpChunkedPrefill(t *testing.T) {
	o, g := opModel(t, "h100-sxm")
	st := Stage{Model: llama8b(t), Layers: 32, First: true, Last: true, TP: 1, GPU: g}
	whole, _, err := o.Step(st, 1, 3*PrefillChunk, 3*PrefillChunk)
	if err != nil {
		t.Fatal(err)
	}
	one, err := o.chunkTally(st, PrefillChunk)
	if err != nil {
		t.Fatal(err)
	}
	head, err := o.headTally(st, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := units.Round(3*one.time + head.time); whole.Time != want {
		t.Errorf("dense part of a 3-chunk prefill %v, want 3 × %v + the head %v", whole.Time, one.time, head.time)
	}
	if want := units.Bytes(3*one.bytes + head.bytes); whole.Bytes != want {
		t.Errorf("dense bytes %v, want %v (the weights read once per chunk)", whole.Bytes, want)
	}
}

// TestOpModelErrors: a bad step is an error naming it, not a panic; a GPU
// without a GEMM model is refused at construction.
func TestOpModelErrors(t *testing.T) {
	o, g := opModel(t, "h100-sxm")
	st := Stage{Model: llama8b(t), Layers: 32, First: true, Last: true, TP: 1, GPU: g}
	for _, bad := range [][3]int{{0, 1, 1}, {1, 0, 1}, {1, 4, 2}} {
		if _, _, err := o.Step(st, bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("Step(b %d, q %d, context %d): no error", bad[0], bad[1], bad[2])
		}
	}
	st.TP = 3 // divides neither the heads nor the MLP
	if _, err := o.Decode(st, 1, 8); err == nil {
		t.Error("tp 3 on Llama 3 8B: no error")
	}
	if _, err := NewOpModel(hw.GPU{Name: "no-such-gpu", PeakFLOPS: 1e12, HBMBandwidth: 1e12}); err == nil {
		t.Error("a GPU without GEMM parameters: no error")
	}
}

// TestOpDecodeSpan: in a run without training.efficiency, a middle
// stage's decode span is its 8 layers of weights and the cache over the
// achievable bandwidth plus 8 · 12 launches, within 1% (the activations'
// own traffic).
func TestOpDecodeSpan(t *testing.T) {
	const requests, output = 2, 4
	s := serving(1, 4, requests, output, func(in *Settings) { in.Microbatches = 1 })
	tl := simulateOK(t, s)
	g, _ := hw.LookupGPU("h100-sxm")
	layers := llamaLayers / 4
	perToken := 2 * layers * llamaKVHeads * llamaHeadDim * 2
	step := 0
	for _, sp := range tl.Spans {
		if sp.GPU != 1 || sp.Kind != timeline.Decode {
			continue
		}
		step++
		context := SettingsOf(&s).Prompt + step
		bytes := float64(layers*llamaLayerParams*2 + requests*context*perToken)
		want := bytes/achievable(t, g) + float64(12*layers)*operators.DefaultLaunchOverhead.Seconds()
		if got := (sp.End - sp.Start).Seconds(); math.Abs(got/want-1) > 0.01 {
			t.Errorf("decode step %d on stage 1: %.6f s, want bytes/(η·HBM) + 96 launches = %.6f s within 1%%", step, got, want)
		}
	}
	if step != output-1 {
		t.Errorf("%d decode spans on GPU 1, want %d", step, output-1)
	}
}

// TestOpModelShapeBytes holds the op model's one-off allocation for a new
// chunk shape under OpModelShapeBytes, the figure Work bounds it by, and
// a later step of a known shape to a few hundred bytes (its new
// attention price).
//
// TotalAlloc counts every goroutine's allocations, the runtime's own
// included, so each figure is the least of three fresh measurements: noise
// only ever adds to it.
func TestOpModelShapeBytes(t *testing.T) {
	o, g := opModel(t, "h100-sxm")
	st := Stage{Model: llama8b(t), Layers: 32, First: true, Last: true, TP: 1, GPU: g}
	alloc := func(f func()) uint64 {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	for _, tokens := range []int{8, 2048} {
		got := uint64(math.MaxUint64)
		for try := 0; try < 3; try++ {
			fresh, _ := opModel(t, "h100-sxm")
			got = min(got, alloc(func() { _, _, _ = fresh.Step(st, tokens, 1, 300) }))
		}
		if got > OpModelShapeBytes {
			t.Errorf("first step of %d tokens allocated %d B, want at most OpModelShapeBytes = %d", tokens, got, OpModelShapeBytes)
		}
		_, _, _ = o.Step(st, tokens, 1, 300)
	}
	if got := alloc(func() { _, _ = o.Decode(st, 8, 301) }); got > 2048 {
		t.Errorf("a decode step of a known shape allocated %d B, want at most 2 KiB", got)
	}
}
