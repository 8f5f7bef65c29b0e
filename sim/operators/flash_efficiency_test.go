package operators

import (
	"math"
	"testing"
)

// TestFlashEfficiencyAgainstFA3 holds the curve to the FlashAttention-3
// forward-pass measurements it was fitted to (pytorch/benchmark commit
// ff65cb67: H100, head dimension 128, 16 heads, batch × sequence = 16K),
// as fractions of the H100 SXM's 989.4 TFLOP/s peak, within 3%.
func TestFlashEfficiencyAgainstFA3(t *testing.T) {
	const peak, ceiling = 989.4, 794.5 / 989.4
	for _, tc := range []struct {
		seq    int
		tflops float64
	}{{512, 430.32}, {1024, 517.099}, {2048, 565.544}, {4096, 590.233}, {8192, 614.234}, {16384, 620.73}} {
		a := Attention{Batch: 16384 / tc.seq, Heads: 16, KVHeads: 16, QueryLen: tc.seq, KeyLen: tc.seq, HeadDim: 128}
		got, want := FlashEfficiency(a, ceiling), tc.tflops/peak
		if math.Abs(got/want-1) > 0.03 {
			t.Errorf("seq %d: efficiency %.3f, measured %.3f (%.1f%% off, want within 3%%)", tc.seq, got, want, 100*(got/want-1))
		}
	}
}

// TestFlashEfficiencyShape: a causal mask halves the keys a query sees
// (so a causal kernel of 2s keys runs as a full one of s); a decode step's
// single query is not masked; the rate grows with the keys toward
// ceiling × FlashLongFraction and stays in (0, 1].
func TestFlashEfficiencyShape(t *testing.T) {
	full := Attention{Batch: 1, Heads: 8, KVHeads: 8, QueryLen: 4096, KeyLen: 4096, HeadDim: 128}
	causal := full
	causal.Causal, causal.QueryLen, causal.KeyLen = true, 8192, 8192
	if got, want := FlashEfficiency(causal, 0.8), FlashEfficiency(full, 0.8); got != want {
		t.Errorf("causal over 8192 keys: %v, want the full kernel's over 4096, %v", got, want)
	}
	decode := Attention{Batch: 1, Heads: 8, KVHeads: 8, QueryLen: 1, KeyLen: 4096, HeadDim: 128, Causal: true}
	if got, want := FlashEfficiency(decode, 0.8), FlashEfficiency(full, 0.8); got != want {
		t.Errorf("one query over 4096 keys: %v, want the unmasked rate %v", got, want)
	}
	prev := 0.0
	for _, keys := range []int{0, 1, 64, 1024, 1 << 20} {
		a := full
		a.KeyLen = keys
		e := FlashEfficiency(a, 1)
		if !(e > 0 && e <= 1) || e < prev {
			t.Errorf("keys %d: efficiency %v, want in (0, 1] and not below %v", keys, e, prev)
		}
		prev = e
	}
	if limit := FlashLongFraction; prev > limit || prev < 0.999*limit {
		t.Errorf("a million keys: %v, want just under %v", prev, limit)
	}
}
