package training

import (
	"paraplay/sim/compression"
	"paraplay/sim/gemm"
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// The compute that compressed activations cost (package compression):
//
//   - compression.activations < 1 with compression.time_per_mib t_c: each
//     message pays t_c per MiB of its uncompressed bytes, for encoding and
//     decoding together, as the data-parallel gradients do (Xu et al. 2024
//     compress every class with GPU compressors inside the collectives).
//     A layer's tensor-, context- and expert-parallel exchanges add it to
//     the op that sends them (layerCodec); a pipeline message adds its
//     encoding to the op that sends it (p2pCodec, opCodec).
//   - compression.rank k (Protocol Models, Ramasinghe et al. 2025): a
//     pipeline message carries k coordinates per token instead of h values;
//     each sending rank projects its rows onto the subspace and each
//     receiving rank rebuilds them, a GEMM each (rows × h by h × k, and
//     rows × k by k × h), priced by package gemm from its shape and added
//     to the sending and the receiving op (opCodec).
//
// An ideal network sends nothing, so nothing is encoded (codecOf).

// codecOf is the compression whose encoding the ops of a run on network
// pay for: none on an ideal one.
func codecOf(c scenario.Compression, f fidelity) scenario.Compression {
	if f == ideal {
		c.Activations, c.Rank = 1, 0
	}
	return c
}

// layerCodec is the compute one layer's forward and backward spend
// encoding the activations of their tensor-, context- and expert-parallel
// exchanges: t_c per MiB of the uncompressed bytes (two tp all-reduces of
// b·s·h elements a pass, c−1 K/V exchanges forward and 2(c−1) backward,
// two MoE all-to-alls a pass; full recomputation repeats the forward's).
func (c *costs) layerCodec() (fwd, bwd units.Time) {
	z := c.comp
	if z.Activations >= 1 || z.TimePerMiB == 0 || !c.real {
		return 0, 0
	}
	p, m := c.par, c.model
	elems := c.boundaryElements()
	var f, b float64 // bytes a layer sends in each pass
	if p.TP > 1 {
		f += 2 * elems * bytesPerElement
		b += 2 * elems * bytesPerElement
	}
	if p.CP > 1 {
		kv := 2 * elems * float64(m.KVHeadCount()*m.HeadDim()) / float64(m.Hidden) / float64(p.TP) * bytesPerElement
		f += float64(p.CP-1) * kv
		b += 2 * float64(p.CP-1) * kv
	}
	if m.IsMoE() && p.EP > 1 {
		a2a := 2 * elems * bytesPerElement * float64(m.MoE.TopK) / float64(p.TP)
		f += a2a
		b += a2a
	}
	if workload.Recompute(p.Recompute) == workload.RecomputeFull {
		b += f
	}
	return compression.Time(z.TimePerMiB, units.Bytes(f)), compression.Time(z.TimePerMiB, units.Bytes(b))
}

// p2pCodec is the compute of one pipeline message on each of its tp·cp
// sending ranks (enc) and receiving ranks (dec).
func (c *costs) p2pCodec() (enc, dec units.Time) {
	z := c.comp
	if !c.real {
		return 0, 0
	}
	elems := c.boundaryElements() / float64(c.par.TP) // one rank's share
	if z.Rank > 0 {
		rows := max(1, int(elems/float64(c.model.Hidden)+0.5))
		return c.gemmTime(rows, z.Rank, c.model.Hidden), c.gemmTime(rows, c.model.Hidden, z.Rank)
	}
	if z.Activations < 1 {
		return compression.Time(z.TimePerMiB, units.Bytes(elems*bytesPerElement)), 0
	}
	return 0, 0
}

// gemmTime is one 16-bit GEMM of an m×k by a k×n matrix on the reference
// GPU: package gemm's time for the shape in bf16 (fp16 on a GPU without
// bf16), or its FLOPs at the run's efficiency when training.efficiency
// is set (or the GPU has no GEMM model).
func (c *costs) gemmTime(m, n, k int) units.Time {
	s := gemm.Shape{Batch: 1, M: m, N: n, K: k}
	flops := compression.ProjectionFLOPs(float64(m), float64(k), float64(n))
	if !c.explicitEff && s.Validate() == nil {
		for _, d := range []gemm.DType{gemm.BF16, gemm.FP16} {
			if t, err := gemm.Time(c.gpu, s, d); err == nil {
				return max(1, units.Round(t))
			}
		}
	}
	return max(1, c.time(flops, flops))
}

// opCodec is the compute an op of kind on model stage k adds for the
// pipeline messages it encodes (the activations a forward sends on, the
// gradients a backward sends back) and decodes (those it receives): part
// of the op, so a message leaves once it is encoded and an op starts on
// what it received. A boundary between stages on one device, or an ideal
// network, sends nothing.
func (tr *iteration) opCodec(kind pipeline.Kind, k int) units.Time {
	enc, dec := tr.p2pCodec()
	if enc+dec == 0 || kind == pipeline.W {
		return 0
	}
	sends := func(from, to int) bool {
		return to >= 0 && to < tr.stages && tr.sch.Layout[from].Device != tr.sch.Layout[to].Device &&
			tr.fid != ideal && tr.p2pBytes > 0 && !(kind == pipeline.B && tr.sch.LocalLoss)
	}
	next := k + 1 // a forward sends on and receives from k − 1
	if kind == pipeline.B {
		next = k - 1
	}
	var t units.Time
	if sends(k, next) {
		t += enc
	}
	if sends(k, 2*k-next) {
		t += dec
	}
	return t
}

// checkRank checks compression.rank against the model: a subspace of a
// real model's hidden size at most.
func checkRank(s *scenario.Scenario, bad scenario.Reporter) {
	k := s.Compression.Rank
	if k <= 0 {
		return
	}
	if s.Model.IsSynthetic() {
		bad("compression.rank", "is %d, but model.synthetic has no hidden size to project; give a model preset or shape", k)
		return
	}
	if m, err := s.Model.Resolve(); err == nil && k > m.Hidden {
		bad("compression.rank", "is %d; allowed 1..%d (model.hidden; 0 = off)", k, m.Hidden)
	}
}
