package operators

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/workload"
)

func model(t testing.TB, name string) workload.Model {
	t.Helper()
	m, err := workload.LookupModel(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// gptConfig is Korthikanti et al.'s and Narayanan et al.'s layer: GPT,
// eager attention with dropout, not causal (the closed forms count every
// score), bf16.
func gptConfig(m workload.Model, b, tp int, sp bool, r workload.Recompute) Config {
	return Config{Model: m, MicroBatch: b, TP: tp, SequenceParallel: sp, CP: 1,
		Attention: Eager, Precision: BF16, Recompute: r, Dropout: true}
}

func mustLayer(t testing.TB, c Config) List {
	t.Helper()
	l, err := Layer(c)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func mustHead(t testing.TB, c Config) List {
	t.Helper()
	l, err := Head(c)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-12*math.Abs(want) }

// matmulFLOPs is what the hardware runs in GEMMs and attention,
// recomputation included.
func matmulFLOPs(l List) float64 { return l.Select(Op.IsMatmul).Totals().FLOPs }

// TestNarayananFLOPs: the layers and the head, summed over the
// tensor-parallel GPUs, do Narayanan et al. 2021's model FLOPs
// 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)) and, with full recomputation,
// 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)); one layer equals
// workload.LayerFLOPs.
func TestNarayananFLOPs(t *testing.T) {
	for _, tc := range []struct {
		model     string
		b, tp     int
		attention string
	}{
		{"megatron-1.7b", 4, 1, Eager}, {"megatron-18b", 2, 8, Eager}, {"megatron-1t", 1, 8, Eager},
		{"megatron-530b", 1, 8, Flash}, {"megatron-145b", 2, 4, Flash},
	} {
		m := model(t, tc.model)
		c := gptConfig(m, tc.b, tc.tp, tc.tp > 1, workload.RecomputeNone)
		c.Attention = tc.attention
		T := float64(tc.tp)
		layer, head := mustLayer(t, c), mustHead(t, c)
		got := T * (float64(m.Layers)*layer.Totals().ModelFLOPs + head.Totals().ModelFLOPs)
		want := workload.NarayananModelFLOPs(tc.b, m.SeqLen, m.Layers, m.Hidden, m.Vocab)
		if !near(got, want) {
			t.Errorf("%s b=%d t=%d %s: model FLOPs %.6e, want Narayanan's %.6e (rel %.2e)", tc.model, tc.b, tc.tp, tc.attention, got, want, got/want-1)
		}
		if got, want := layer.Totals().ModelFLOPs, workload.LayerFLOPs(m, tc.b, tc.tp, 1, workload.RecomputeNone).Total().Model(); !near(got, want) {
			t.Errorf("%s: one layer %.6e FLOPs, want workload.LayerFLOPs %.6e", tc.model, got, want)
		}
		if tc.attention != Eager {
			continue // flash's backward recomputes scores: more hardware FLOPs than the closed form
		}
		c.Recompute = workload.RecomputeFull
		full := mustLayer(t, c)
		got = T * (float64(m.Layers)*matmulFLOPs(full) + matmulFLOPs(head))
		want = workload.NarayananRecomputeFLOPs(tc.b, m.SeqLen, m.Layers, m.Hidden, m.Vocab)
		if !near(got, want) {
			t.Errorf("%s full recompute: hardware FLOPs %.6e, want Narayanan's %.6e", tc.model, got, want)
		}
	}
}

// TestKorthikantiEager: the eager layer's saved bytes are Korthikanti et
// al. 2022's sbh(10 + 24/t + 5as/(ht)), sbh(34/t + 5as/(ht)), sbh(10 +
// 24/t), sbh·34/t and 2sbh, as workload.ActivationBytesPerLayer computes
// them, and exactly their integer form.
func TestKorthikantiEager(t *testing.T) {
	for _, name := range []string{"megatron-18b", "gpt3-175b", "megatron-1t"} {
		m := model(t, name)
		for _, b := range []int{1, 4} {
			for _, tp := range []int{1, 2, 8} {
				for _, sp := range []bool{false, true} {
					for _, r := range []workload.Recompute{workload.RecomputeNone, workload.RecomputeSelective, workload.RecomputeFull} {
						got := mustLayer(t, gptConfig(m, b, tp, sp, r)).Totals().SavedBytes
						want := korthikanti(m, b, tp, sp, r)
						if got != want {
							t.Errorf("%s b=%d t=%d sp=%v %s: saved %.0f bytes, want %.0f", name, b, tp, sp, r, got, want)
						}
						if sp && r == workload.RecomputeFull {
							continue // Megatron keeps the input sharded: 2sbh/t, where the table prints 2sbh
						}
						if closed := workload.ActivationBytesPerLayer(m, b, tp, sp, r); !near(got, closed) {
							t.Errorf("%s b=%d t=%d sp=%v %s: saved %.0f bytes, workload's closed form %.0f", name, b, tp, sp, r, got, closed)
						}
					}
				}
			}
		}
	}
}

// korthikanti is the paper's Table 2 in integers: 10sbh replicated (or /t
// with SP), 24sbh/t split, 5as²b/t for the scores unless recomputed; 2sbh
// for full recomputation (2sbh/t with SP).
func korthikanti(m workload.Model, b, tp int, sp bool, r workload.Recompute) float64 {
	s, h, a, t := float64(m.SeqLen), float64(m.Hidden), float64(m.Heads), float64(tp)
	sbh := s * float64(b) * h
	if r == workload.RecomputeFull {
		if sp {
			return 2 * sbh / t
		}
		return 2 * sbh
	}
	replicated := 10 * sbh
	if sp {
		replicated /= t
	}
	bytes := replicated + 24*sbh/t
	if r == workload.RecomputeNone {
		bytes += 5 * a * s * s * float64(b) / t
	}
	return bytes
}

// TestCausalHalving: flash under a causal mask does half the score work,
// forward and backward; eager materialises every score either way.
func TestCausalHalving(t *testing.T) {
	for _, seq := range []int{8192, 131072} {
		m := model(t, "llama3-8b")
		m.SeqLen = seq
		c := Config{Model: m, MicroBatch: 1, TP: 1, CP: 1, Attention: Flash, Precision: BF16, Recompute: workload.RecomputeNone}
		attn := func(causal bool) (fwd, bwd float64) {
			c.Causal = causal
			for _, o := range mustLayer(t, c) {
				if o.Kind == KindAttention && o.Phase == Forward {
					fwd = o.FLOPs
				} else if o.Kind == KindAttention {
					bwd = o.FLOPs
				}
			}
			return
		}
		f0, b0 := attn(false)
		f1, b1 := attn(true)
		want := 4 * float64(seq) * float64(seq) * float64(m.Hidden)
		if f0 != want || f1 != want/2 {
			t.Errorf("s=%d: flash forward %.4e (full) and %.4e (causal), want %.4e and half", seq, f0, f1, want)
		}
		if b0 != 2.5*f0 || b1 != 2.5*f1 {
			t.Errorf("s=%d: flash backward %.4e and %.4e, want 2.5× forward", seq, b0, b1)
		}
	}
}

// TestGQAShapes: Llama 3 70B and 405B have 8 key/value heads; at t = 8
// each GPU holds one, and its QKV GEMM has (a/t + 2)·128 outputs.
func TestGQAShapes(t *testing.T) {
	for _, tc := range []struct {
		model                        string
		heads, qkvN, upN, downK, kvD int
	}{
		{"llama3-70b", 8, (8 + 2) * 128, 2 * 28672 / 8, 28672 / 8, 128},
		{"llama3-405b", 16, (16 + 2) * 128, 2 * 53248 / 8, 53248 / 8, 128},
	} {
		m := model(t, tc.model)
		if m.KVHeadCount() != 8 {
			t.Fatalf("%s: %d kv heads, want 8 (Dubey et al. 2024, Table 3)", tc.model, m.KVHeadCount())
		}
		c := Config{Model: m, MicroBatch: 1, TP: 8, SequenceParallel: true, CP: 1, Attention: Flash, Causal: true,
			Precision: BF16, Recompute: workload.RecomputeNone}
		byName := map[string]Op{}
		for _, o := range mustLayer(t, c) {
			byName[o.Name] = o
		}
		if g := byName["attn.qkv"].GEMM; g.M != m.SeqLen || g.K != m.Hidden || g.N != tc.qkvN {
			t.Errorf("%s: QKV GEMM %+v, want m=%d k=%d n=%d", tc.model, g, m.SeqLen, m.Hidden, tc.qkvN)
		}
		if a := byName["attn.flash"].Attention; a.Heads != tc.heads || a.KVHeads != 1 || a.HeadDim != tc.kvD {
			t.Errorf("%s: attention %+v, want %d query heads and 1 kv head of %d", tc.model, a, tc.heads, tc.kvD)
		}
		if g := byName["mlp.up"].GEMM; g.N != tc.upN {
			t.Errorf("%s: gate-and-up GEMM n = %d, want %d", tc.model, g.N, tc.upN)
		}
		if g := byName["mlp.down"].GEMM; g.K != tc.downK || g.N != m.Hidden {
			t.Errorf("%s: down GEMM %+v, want k=%d n=%d", tc.model, g, tc.downK, m.Hidden)
		}
	}
}

// TestRecomputeRerunsCollectives: full recomputation runs the forward's
// tensor-parallel collectives again (issue 20, item 7); selective
// recomputation of flash with context parallelism re-runs the ring.
func TestRecomputeRerunsCollectives(t *testing.T) {
	m := model(t, "llama3-70b")
	for _, tc := range []struct {
		sp bool
		cp int
		r  workload.Recompute
	}{{false, 1, workload.RecomputeFull}, {true, 1, workload.RecomputeFull}, {true, 2, workload.RecomputeFull}, {true, 2, workload.RecomputeSelective}} {
		c := Config{Model: m, MicroBatch: 1, TP: 8, SequenceParallel: tc.sp, CP: tc.cp, Attention: Flash, Causal: true,
			Precision: BF16, Recompute: tc.r}
		l := mustLayer(t, c)
		comm := func(p Phase, group string) (n int, bytes float64) {
			for _, o := range l.InPhase(p) {
				if o.Kind == KindCollective && o.Comm.Group == group {
					n++
					bytes += o.Comm.Bytes
				}
			}
			return
		}
		groups := []string{"tp", "cp"}
		if tc.r == workload.RecomputeSelective {
			groups = []string{"cp"}
		}
		for _, g := range groups {
			nf, bf := comm(Forward, g)
			nr, br := comm(Recompute, g)
			if nf != nr || bf != br {
				t.Errorf("sp=%v cp=%d %s, group %s: forward %d collectives of %.0f bytes, recompute %d of %.0f", tc.sp, tc.cp, tc.r, g, nf, bf, nr, br)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	good := Config{Model: model(t, "llama3-8b"), MicroBatch: 1, TP: 1, CP: 1, Attention: Flash, Precision: BF16, Recompute: workload.RecomputeNone}
	for _, tc := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.MicroBatch = 0 }, "micro_batch_size = 0"},
		{func(c *Config) { c.TP = 0 }, "parallel.tp = 0"},
		{func(c *Config) { c.TP = 3 }, "heads 32 not divisible by tensor parallel 3"},
		{func(c *Config) { c.CP = 3 }, "seq_len 8192 not divisible by context parallel 3"},
		{func(c *Config) { c.Attention = "sdpa" }, `model.attention "sdpa"`},
		{func(c *Config) { c.Attention, c.CP = Eager, 2 }, "ring attention"},
		{func(c *Config) { c.Precision = "fp4" }, `training.precision "fp4"`},
		{func(c *Config) { c.Recompute = "some" }, `training.recompute "some"`},
		{func(c *Config) { c.Model, c.EP = model(t, "mixtral-8x7b"), 3 }, "parallel.ep = 3, want a divisor of model mixtral-8x7b's 8 experts"},
		{func(c *Config) { c.Model, c.TP, c.ETP = model(t, "mixtral-8x7b"), 2, 4 }, "parallel.etp = 4, want 1..parallel.tp (2)"},
		{func(c *Config) { c.EP = 2 }, "need a mixture of experts"},
		{func(c *Config) { c.Model, c.Attention = model(t, "deepseek-v3"), Eager }, "MLA"},
	} {
		c := good
		tc.change(&c)
		_, err := Layer(c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got error %v, want one containing %q", err, tc.want)
		}
	}
	if _, err := Layer(good); err != nil {
		t.Errorf("good config: %v", err)
	}
}
