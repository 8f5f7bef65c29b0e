package operators

import (
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// llama405B is Llama 3 405B's published 8K pre-training layout on one GPU
// (Dubey et al. 2024, §3.3.2 and Table 4): TP 8 with sequence parallelism,
// microbatch 1, bf16, causal flash attention, no checkpointing.
func llama405B(t testing.TB, attention string) Config {
	return Config{Model: model(t, "llama3-405b"), MicroBatch: 1, TP: 8, SequenceParallel: true, CP: 1,
		Attention: attention, Causal: true, Precision: BF16, Recompute: workload.RecomputeNone}
}

// TestFlashLayerBytes: a Llama layer under flash keeps, per token and over
// t, the two norm inputs, the QKV input, Q, K, V, the attention output,
// the MLP input, both halves of the gate-and-up output and the gated
// product: (12h + 4·kv_dim + 6·ffn)·s·b/t bytes in bf16; plus fp32 rstd of
// both norms and the logsumexp of every query row and head.
func TestFlashLayerBytes(t *testing.T) {
	for _, name := range []string{"llama3-8b", "llama3-70b", "llama3-405b"} {
		c := llama405B(t, Flash)
		c.Model = model(t, name)
		m := c.Model
		sb := float64(m.SeqLen * c.MicroBatch)
		T := float64(c.TP)
		kv := float64(m.KVHeadCount() * m.HeadDim())
		want := (12*float64(m.Hidden) + 4*kv + 6*float64(m.FFNWidth())) * sb / T
		wantStats := 2*4*sb/T + 4*sb*float64(m.Heads)/T
		got := mustLayer(t, c).Totals()
		if got.SavedBytes != want || got.SavedStats != wantStats {
			t.Errorf("%s: saved %.0f + %.0f stats bytes, want %.0f + %.0f", name, got.SavedBytes, got.SavedStats, want, wantStats)
		}
	}
}

// stageMemory is the model states and activations of each of a 126-layer
// pipeline's 16 stages, split as Llama 3 splits it (one layer fewer on the
// first and last stages), under 1F1B: stage i holds p − i microbatches.
func stageMemory(t testing.TB, c Config, dp int) []float64 {
	const p = 16
	layers := make([]int, p)
	for i := range layers {
		layers[i] = 8
	}
	layers[0], layers[p-1] = 7, 7
	return pipelineMemory(t, c, dp, layers)
}

// pipelineMemory is each stage's model states and activations for the
// given layers per stage under 1F1B.
func pipelineMemory(t testing.TB, c Config, dp int, layers []int) []float64 {
	p := len(layers)
	layer, embed, head := mustLayer(t, c), mustList(t, Embedding, c), mustHead(t, c)
	out := make([]float64, p)
	for i, n := range layers {
		first, last := i == 0, i == p-1
		inFlight := p - i
		mem := ModelStateBytes(workload.StageParams(c.Model, n, first, last, c.TP, 1), dp)
		mem += StageActivationBytes(layer, n, inFlight)
		if first {
			mem += float64(inFlight) * embed.Totals().Saved()
		}
		if last {
			mem += float64(inFlight) * head.Totals().Saved()
		}
		out[i] = mem
	}
	return out
}

func mustList(t testing.TB, f func(Config) (List, error), c Config) List {
	t.Helper()
	l, err := f(c)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func maxStage(mem []float64) (int, float64) {
	best := 0
	for i, m := range mem {
		if m > mem[best] {
			best = i
		}
	}
	return best, mem[best]
}

// Test405BFitsWithFlash: with flash attention Llama 3 405B's published
// layout fits an 80 GB H100 at DP 64 and DP 128 (the paper trains it so,
// without activation checkpointing); with eager attention's s×s tensors
// it does not come close (without dropout, Llama's layer keeps only the
// softmax output of the s×s tensors: 2as²b/t, not Korthikanti's 5as²b/t).
func Test405BFitsWithFlash(t *testing.T) {
	h100, err := hw.LookupGPU("h100-sxm")
	if err != nil {
		t.Fatal(err)
	}
	hbm := float64(h100.HBM)
	for _, dp := range []int{64, 128} {
		stage, flash := maxStage(stageMemory(t, llama405B(t, Flash), dp))
		estage, eager := maxStage(stageMemory(t, llama405B(t, Eager), dp))
		t.Logf("DP %d: flash %.1f GiB (stage %d), eager %.1f GiB (stage %d), HBM %.0f GiB",
			dp, flash/float64(units.GiB), stage, eager/float64(units.GiB), estage, hbm/float64(units.GiB))
		if flash >= hbm {
			t.Errorf("DP %d: flash needs %.1f GiB on stage %d, want under the H100's %.0f GiB", dp, flash/float64(units.GiB), stage, hbm/float64(units.GiB))
		}
		if eager < 3*hbm {
			t.Errorf("DP %d: eager needs %.1f GiB, want far over HBM (its 2as²b/t softmax output is 2.1 GB a layer)", dp, eager/float64(units.GiB))
		}
	}
}

func TestModelStateBytes(t *testing.T) {
	for _, tc := range []struct {
		params float64
		dp     int
		want   float64
	}{{1e9, 1, 18e9}, {1e9, 64, 6.1875e9}, {3e9, 12, 21e9}} {
		if got := ModelStateBytes(tc.params, tc.dp); got != tc.want {
			t.Errorf("ModelStateBytes(%v, %d) = %v, want %v", tc.params, tc.dp, got, tc.want)
		}
	}
}

func TestPaddedVocab(t *testing.T) {
	for _, tc := range []struct{ vocab, tp, want int }{
		{51200, 8, 51200}, {128256, 1, 128256}, {128256, 8, 129024}, {50257, 1, 50304}, {50257, 8, 51200},
	} {
		if got := PaddedVocab(tc.vocab, tc.tp); got != tc.want {
			t.Errorf("PaddedVocab(%d, %d) = %d, want %d", tc.vocab, tc.tp, got, tc.want)
		}
	}
}

// TestLog405BBreakdown logs stage 1's parts, for the notes.
func TestLog405BBreakdown(t *testing.T) {
	c := llama405B(t, Flash)
	layer := mustLayer(t, c).Totals()
	params := workload.StageParams(c.Model, 8, false, false, 8, 1)
	gib := float64(units.GiB)
	t.Logf("405B flash layer: %.1f MiB saved + %.2f MiB stats per microbatch; stage 1: %.3g params, states %.1f GiB (DP 64), activations 15×8 layers %.1f GiB",
		layer.SavedBytes/float64(units.MiB), layer.SavedStats/float64(units.MiB), params,
		ModelStateBytes(params, 64)/gib, 120*layer.Saved()/gib)
}

// TestLlama8BFits: the playground's llama3-8b at dp 2 × tp 4 × pp 2, 8K,
// which the Korthikanti-formula memory reported as 111 GiB (issue 20), fits
// with flash attention, with or without sequence parallelism.
func TestLlama8BFits(t *testing.T) {
	for _, sp := range []bool{false, true} {
		c := Config{Model: model(t, "llama3-8b"), MicroBatch: 1, TP: 4, SequenceParallel: sp, CP: 1,
			Attention: Flash, Causal: true, Precision: BF16, Recompute: workload.RecomputeNone}
		stage, mem := maxStage(pipelineMemory(t, c, 2, []int{16, 16}))
		t.Logf("llama3-8b dp 2 × tp 4 × pp 2, sp=%v: %.1f GiB on stage %d", sp, mem/float64(units.GiB), stage)
		if mem >= 40*float64(units.GiB) {
			t.Errorf("sp=%v: %.1f GiB, want well under 80 GiB", sp, mem/float64(units.GiB))
		}
	}
}
