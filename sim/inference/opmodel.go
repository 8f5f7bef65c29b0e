package inference

import (
	"fmt"

	"paraplay/sim/gemm"
	"paraplay/sim/hw"
	"paraplay/sim/operators"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// OpModel prices a serving step as the kernels one GPU of a stage runs,
// the same op list (sim/operators) and GEMM model (sim/gemm) that price a
// training layer, instead of the fixed-efficiency roofline of
// Stage.Roofline:
//
//	step = Σ over kernels of max(FLOPs / (peak · efficiency(shape)), bytes / (HBM · η)) + launch
//
// A GEMM's efficiency is the GEMM model's, FLOPs / (peak · (gemm time −
// its launch)), so that its own bandwidth bound prices the skinny GEMMs of
// a decode step (m = the batch's rows) by their bytes, and its launch is
// not counted twice; fused attention takes operators.FlashEfficiency; the
// other kernels are priced by their bytes. η is the fraction of the HBM
// bandwidth the GEMM model streams at (gemm.Params.HBMEfficiency, fitted
// per GPU), used for every kernel so that a decode step's floor is one
// figure. The launch is operators.DefaultLaunchOverhead per kernel: the
// per-step overhead is kernels × launch (about 390 kernels, 1.2 ms, for a
// decode step of Llama 3 8B on one GPU). A server that captures its decode
// step in a CUDA graph and fuses kernels (vLLM, TensorRT-LLM) pays less,
// by an amount we could not confirm: UNCONFIRMED, an order of magnitude.
//
// An OpModel is built once per run and caches prices; it is not safe for
// concurrent use.
type OpModel struct {
	pricer  *operators.Pricer
	dtype   operators.DType
	peak    float64 // the 16-bit tensor-core peak, FLOP/s
	hbm     float64 // achievable HBM bandwidth, B/s
	ceiling float64 // the GEMM model's best rate over its peak
	eff     operators.Efficiency
	dense   map[denseKey]tally
	head    map[headKey]tally
}

// headKey is what the output head's kernels depend on.
type headKey struct{ tp, rows int }

// denseKey is what a stage's weight math for one chunk depends on.
type denseKey struct {
	layers, tp, tokens int
	first              bool
}

// tally sums priced kernels, in floating point so that no sum can wrap
// (cost saturates it at units.MaxTime).
type tally struct {
	time, launch    float64 // seconds: the kernels' times, and their launches
	bytes, flops    float64
	memory, compute float64 // seconds
	kernels         int
}

// NewOpModel is the op model of g: its GEMM model (gemm.For), its peak
// and its achievable HBM bandwidth. The 16-bit format is bf16, or fp16 on
// a GPU without bf16 tensor cores (V100, T4).
func NewOpModel(g hw.GPU) (*OpModel, error) {
	gm, err := gemm.For(g)
	if err != nil {
		return nil, fmt.Errorf("inference: %w", err)
	}
	p, err := gemm.Lookup(g.Name)
	if err != nil {
		return nil, fmt.Errorf("inference: %w", err)
	}
	o := &OpModel{dtype: operators.BF16, dense: map[denseKey]tally{}, head: map[headKey]tally{}}
	gd := gemm.BF16
	if gm.Peak(gemm.BF16) == 0 {
		o.dtype, gd = operators.FP16, gemm.FP16
	}
	o.peak, o.hbm = gm.Peak(gd), float64(g.HBMBandwidth)*p.HBMEfficiency
	o.ceiling = gm.Ceiling(gd) / o.peak
	o.eff = func(s operators.Shape) float64 {
		if s.Kind == operators.KindAttention {
			return operators.FlashEfficiency(s.Attention, o.ceiling)
		}
		sh := gemm.Shape{Batch: max(s.GEMM.Batch, 1), M: s.GEMM.M, N: s.GEMM.N, K: s.GEMM.K}
		t, err := gm.Time(sh, gd)
		if err != nil {
			return 0 // the pricer reports an efficiency outside (0, 1]
		}
		return min(1, sh.FLOPs()/(o.peak*max(t-gm.Launch(), 1e-12)))
	}
	o.pricer, err = operators.NewPricer(operators.Roofline{PeakFLOPS: o.peak, HBMBandwidth: o.hbm,
		Launch: operators.DefaultLaunchOverhead, Efficiency: o.eff})
	if err != nil {
		return nil, fmt.Errorf("inference: %w", err)
	}
	return o, nil
}

// HBMBandwidth is the achievable bandwidth every kernel streams at, B/s.
func (o *OpModel) HBMBandwidth() float64 { return o.hbm }

// Decode is one decode step of b requests whose cache holds context
// tokens each (the new one included) on stage st.
func (o *OpModel) Decode(st Stage, b, context int) (Cost, error) {
	d, a, err := o.Step(st, b, 1, context)
	return d.plus(a), err
}

// Prefill is the prefill of b prompts of p tokens on stage st.
func (o *OpModel) Prefill(st Stage, b, p int) (Cost, error) {
	d, a, err := o.Step(st, b, p, p)
	return d.plus(a), err
}

// Step prices b requests each bringing q new tokens whose attention reads
// a cache of context tokens (q = context for a prefill, q = 1 for a decode
// step), split as SiDP's activation shipping needs it: dense is the
// weight math (every kernel but attention's, on the weights' owner) and
// attn the attention kernels and the cache append (on the GPU that holds
// the cache).
func (o *OpModel) Step(st Stage, b, q, context int) (dense, attn Cost, err error) {
	if b < 1 || q < 1 || context < q {
		return Cost{}, Cost{}, fmt.Errorf("inference: step of %d requests, %d new tokens, context %d: want b, q ≥ 1 and context ≥ q", b, q, context)
	}
	d, err := o.denseTally(st, b*q, b)
	if err != nil {
		return Cost{}, Cost{}, err
	}
	a, err := o.attentionTally(st, b, q, context)
	if err != nil {
		return Cost{}, Cost{}, err
	}
	return d.cost(), a.cost(), nil
}

// denseTally is the weight math of tokens tokens through st's layers (the
// embedding on a first stage), in chunks of at most PrefillChunk tokens
// (chunked prefill: each chunk reads the weights again), and, on a last
// stage, the final norm and the output head for rows rows (one per
// request: only the last position is sampled).
func (o *OpModel) denseTally(st Stage, tokens, rows int) (tally, error) {
	var sum tally
	chunk := min(tokens, PrefillChunk)
	for _, part := range []struct{ size, count int }{{chunk, tokens / chunk}, {tokens % chunk, 1}} {
		if part.size == 0 || part.count == 0 {
			continue
		}
		t, err := o.chunkTally(st, part.size)
		if err != nil {
			return tally{}, err
		}
		sum = sum.add(t.times(part.count))
	}
	if st.Last {
		h, err := o.headTally(st, rows)
		if err != nil {
			return tally{}, err
		}
		sum = sum.add(h)
	}
	return sum, nil
}

// chunkTally is one chunk of tokens through st's layers, cached.
func (o *OpModel) chunkTally(st Stage, tokens int) (tally, error) {
	key := denseKey{layers: st.Layers, tp: st.TP, tokens: tokens, first: st.First}
	if t, ok := o.dense[key]; ok {
		return t, nil
	}
	c := o.config(st, 1, tokens)
	layer, err := operators.Layer(c)
	if err != nil {
		return tally{}, err
	}
	// The layer's attention is priced apart, over the cache.
	layer = layer.Select(func(op operators.Op) bool {
		return op.Phase == operators.Forward && op.Kind != operators.KindAttention
	})
	t, err := o.tally(layer)
	if err != nil {
		return tally{}, err
	}
	t = t.times(st.Layers)
	if st.First {
		emb, err := operators.Embedding(c)
		if err != nil {
			return tally{}, err
		}
		e, err := o.tally(emb.InPhase(operators.Forward))
		if err != nil {
			return tally{}, err
		}
		t = t.add(e)
	}
	o.dense[key] = t
	return t, nil
}

// headTally is the final norm and the logits GEMM for rows rows; the
// training head's fp32 cast and cross-entropy are not a server's (its
// sampler is inference.sample_time).
func (o *OpModel) headTally(st Stage, rows int) (tally, error) {
	key := headKey{tp: st.TP, rows: rows}
	if t, ok := o.head[key]; ok {
		return t, nil
	}
	head, err := operators.Head(o.config(st, rows, 1))
	if err != nil {
		return tally{}, err
	}
	t, err := o.tally(head.Select(func(op operators.Op) bool { return op.Name == "head.norm" || op.Name == "head.logits" }))
	if err == nil {
		o.head[key] = t
	}
	return t, err
}

// config is one GPU's share of st's layers for batch sequences of seq
// tokens: flash attention, causal, 16-bit, no recomputation, no dropout.
func (o *OpModel) config(st Stage, batch, seq int) operators.Config {
	m := st.Model
	m.SeqLen = seq
	return operators.Config{Model: m, MicroBatch: batch, TP: st.TP, CP: 1, Attention: operators.Flash,
		Causal: true, Precision: o.dtype, Recompute: workload.RecomputeNone}
}

// attentionTally is, per layer, the append of the step's keys and values
// to the cache (a copy, as vLLM's reshape_and_cache is) and one fused
// attention kernel over the cache: b requests of q queries each reading
// context keys and values. Under the causal mask a query sees the keys up
// to its own position: 4 · b · heads · q · d · (context − q/2) FLOPs, which
// is 2 · b · heads · p² · d for a prefill (q = context = p) as in
// operators' flash kernel, and 4 · b · heads · context · d for a decode
// step (q = 1: its one query sees the whole cache).
func (o *OpModel) attentionTally(st Stage, b, q, context int) (tally, error) {
	m := st.Model
	heads, kv, d := m.Heads/st.TP, m.KVHeadCount()/st.TP, m.HeadDim()
	fb, fq, fc := float64(b), float64(q), float64(context)
	keys := fc
	if q > 1 {
		keys = fc - fq/2
	}
	qBytes := fb * fq * float64(heads*d) * BytesPerElement
	newKV := 2 * fb * fq * float64(kv*d) * BytesPerElement
	cache := 2 * fb * fc * float64(kv*d) * BytesPerElement
	flops := 4 * fb * float64(heads) * fq * float64(d) * keys
	shape := operators.Attention{Batch: b, Heads: heads, KVHeads: kv, QueryLen: q, KeyLen: context, HeadDim: d, Causal: q > 1}
	appendKV := operators.Op{Name: "attn.kv_append", Kind: operators.KindElementwise, Phase: operators.Forward, DType: o.dtype,
		ReadBytes: newKV, WriteBytes: newKV}
	attn := operators.Op{Name: "attn.flash", Kind: operators.KindAttention, Phase: operators.Forward, DType: o.dtype, Attention: shape,
		FLOPs: flops, ModelFLOPs: flops, ReadBytes: qBytes + cache, WriteBytes: qBytes}
	a, err := o.tallyOp(appendKV)
	if err != nil {
		return tally{}, err
	}
	k, err := o.tallyOp(attn)
	return a.add(k).times(st.Layers), err
}

// tally prices l's compute kernels (collectives are sim/collective's: the
// strategy prices tensor-parallel all-reduces on the links).
func (o *OpModel) tally(l operators.List) (tally, error) {
	var t tally
	for _, op := range l {
		if op.Kind == operators.KindCollective {
			continue
		}
		u, err := o.tallyOp(op)
		if err != nil {
			return tally{}, err
		}
		t = t.add(u)
	}
	return t, nil
}

// tallyOp prices one compute kernel.
func (o *OpModel) tallyOp(op operators.Op) (tally, error) {
	d, err := o.pricer.Time(op)
	if err != nil {
		return tally{}, err
	}
	t := tally{time: d.Seconds(), launch: operators.DefaultLaunchOverhead.Seconds(), kernels: 1,
		bytes: op.Bytes(), flops: op.FLOPs, memory: op.Bytes() / o.hbm}
	if op.IsMatmul() {
		t.compute = op.FLOPs / (o.peak * o.eff(operators.ShapeOf(op)))
	}
	return t, nil
}

func (t tally) add(u tally) tally {
	return tally{time: t.time + u.time, bytes: t.bytes + u.bytes, flops: t.flops + u.flops,
		memory: t.memory + u.memory, compute: t.compute + u.compute, kernels: t.kernels + u.kernels, launch: t.launch + u.launch}
}

func (t tally) times(n int) tally {
	f := float64(n)
	return tally{time: t.time * f, bytes: t.bytes * f, flops: t.flops * f,
		memory: t.memory * f, compute: t.compute * f, kernels: t.kernels * n, launch: t.launch * f}
}

func (t tally) cost() Cost {
	return Cost{Bytes: units.Bytes(t.bytes), FLOPs: t.flops, Memory: units.Round(t.memory), Compute: units.Round(t.compute),
		Time: max(units.Round(t.time), 1), Kernels: t.kernels, Overhead: units.Round(t.launch)}
}
