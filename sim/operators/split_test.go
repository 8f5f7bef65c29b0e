package operators

import (
	"testing"

	"paraplay/sim/workload"
)

// TestContextParallelSplitsWork: c GPUs of a context-parallel group
// together do the work of one GPU without it, each on s/c queries against
// all s keys, and each keeps 1/c of its activations.
func TestContextParallelSplitsWork(t *testing.T) {
	m := model(t, "llama3-70b")
	m.SeqLen = 131072
	for _, causal := range []bool{false, true} {
		base := Config{Model: m, MicroBatch: 1, TP: 8, SequenceParallel: true, CP: 1, Attention: Flash, Causal: causal,
			Precision: BF16, Recompute: workload.RecomputeNone}
		one := mustLayer(t, base).Totals()
		for _, cp := range []int{2, 8, 16} {
			c := base
			c.CP = cp
			l := mustLayer(t, c)
			got := l.Totals()
			if !near(float64(cp)*got.ModelFLOPs, one.ModelFLOPs) || !near(float64(cp)*got.Saved(), one.Saved()) {
				t.Errorf("causal=%v cp=%d: %d × (%.4e FLOPs, %.4e bytes), want (%.4e, %.4e)", causal, cp, cp, got.ModelFLOPs, got.Saved(), one.ModelFLOPs, one.Saved())
			}
			for _, o := range l {
				if o.Name == "attn.flash" && (o.Attention.QueryLen != m.SeqLen/cp || o.Attention.KeyLen != m.SeqLen) {
					t.Errorf("cp=%d: attention %+v, want %d queries against %d keys", cp, o.Attention, m.SeqLen/cp, m.SeqLen)
				}
			}
		}
	}
}

// TestBackwardSplit: each weight GEMM's dgrad and wgrad cost what its
// forward does (B = W = F), and the layer's B and W match workload's split.
func TestBackwardSplit(t *testing.T) {
	m := model(t, "megatron-18b")
	c := gptConfig(m, 2, 4, true, workload.RecomputeNone)
	l := mustLayer(t, c)
	sum := func(p Phase) float64 { return l.InPhase(p).Totals().ModelFLOPs }
	want := workload.LayerFLOPs(m, 2, 4, 1, workload.RecomputeNone).Total()
	for _, tc := range []struct {
		phase     Phase
		got, want float64
	}{
		{Forward, sum(Forward), want.Forward},
		{BackwardInput, sum(BackwardInput), want.BackwardInput},
		{BackwardWeight, sum(BackwardWeight), want.BackwardWeight},
	} {
		if !near(tc.got, tc.want) {
			t.Errorf("%s: %.6e FLOPs, want workload's %.6e", tc.phase, tc.got, tc.want)
		}
	}
}

// TestSelectiveRecompute: selective recomputation of flash drops only the
// logsumexp and re-runs the kernel; of eager, it drops the s×s tensors and
// re-runs the core kernels (with GQA's head repeat and the context's
// permute copy, which sit inside Megatron's recomputed core), as Korthikanti
// et al. describe.
func TestSelectiveRecompute(t *testing.T) {
	for _, tc := range []struct {
		attention string
		kernels   int
	}{{Flash, 1}, {Eager, 6}} {
		c := llama405B(t, tc.attention)
		c.Dropout = true
		none := mustLayer(t, c).Totals()
		c.Recompute = workload.RecomputeSelective
		l := mustLayer(t, c)
		sel := l.Totals()
		re := l.InPhase(Recompute)
		if len(re) != tc.kernels {
			t.Errorf("%s: %d recomputed kernels, want %d", tc.attention, len(re), tc.kernels)
		}
		if tc.attention == Flash && (sel.SavedBytes != none.SavedBytes || sel.SavedStats >= none.SavedStats) {
			t.Errorf("flash: saved %.0f → %.0f bytes and %.0f → %.0f stats, want the bytes unchanged (no s×s tensor) and the logsumexp gone",
				none.SavedBytes, sel.SavedBytes, none.SavedStats, sel.SavedStats)
		}
		sh := shapeOf(c)
		scores := 5 * sh.b * sh.heads * sh.s * sh.s
		repeated := 2 * sh.tokens * (sh.heads - sh.kvHeads) * sh.d * sh.act // GQA's repeated K and V
		if tc.attention == Eager && none.SavedBytes-sel.SavedBytes != scores+repeated {
			t.Errorf("eager: selective drops %.0f bytes, want 5as²b/t + the repeated K and V = %.0f", none.SavedBytes-sel.SavedBytes, scores+repeated)
		}
	}
}

// TestStageEnds: the embedding and head ops, and the optimizer step's
// bytes per parameter under the distributed optimizer.
func TestStageEnds(t *testing.T) {
	c := llama405B(t, Flash)
	head := mustHead(t, c).Totals()
	sb, h, v := float64(c.Model.SeqLen), float64(c.Model.Hidden), float64(PaddedVocab(c.Model.Vocab, 8))/8
	if want := 6 * sb * h * v; !near(head.ModelFLOPs, want) {
		t.Errorf("head model FLOPs %.4e, want 6·s·h·V/t = %.4e", head.ModelFLOPs, want)
	}
	if want := sb*v*4 + 2*sb*h*2/8; head.SavedBytes != want {
		t.Errorf("head keeps %.0f bytes, want the fp32 softmax and two sharded inputs, %.0f", head.SavedBytes, want)
	}
	embed := mustList(t, Embedding, c).Totals()
	if embed.ModelFLOPs != 0 || embed.SavedBytes != 0 {
		t.Errorf("embedding: %v FLOPs and %v saved bytes, want 0 and 0 without dropout", embed.ModelFLOPs, embed.SavedBytes)
	}
	opt, err := Optimizer(1e9, 64)
	if err != nil {
		t.Fatal(err)
	}
	tot := opt.Totals()
	if shard := 1e9 / 64; tot.ReadBytes != 20*shard || tot.WriteBytes != 14*shard || tot.CommBytes != 6e9 {
		t.Errorf("optimizer: read %.4e, wrote %.4e, communicated %.4e; want 20, 14 bytes per shard parameter and 6 per parameter", tot.ReadBytes, tot.WriteBytes, tot.CommBytes)
	}
	if _, err := Optimizer(1e9, 0); err == nil {
		t.Error("Optimizer(1e9, 0): no error, want one naming parallel.dp")
	}
}
