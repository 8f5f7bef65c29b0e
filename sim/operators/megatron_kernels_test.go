package operators

import (
	"strings"
	"testing"

	"paraplay/sim/workload"
)

// opsNamed is the ops of l whose name ends in suffix.
func opsNamed(l List, suffix string) List {
	return l.Select(func(o Op) bool { return strings.HasSuffix(o.Name, suffix) })
}

// TestBiasKernels: a GPT layer (linear biases) runs, beside its GEMMs,
// the QKV bias add (read and write the QKV output, s·b·3h/t elements of 2
// bytes) and one bias-gradient reduction per biased linear, each reading
// its output gradient once: s·b·(3h/t + 4h/t) for the column-parallel QKV
// and first MLP matrix, s·b·h (over t under sequence parallelism) for the
// row-parallel output projection and second MLP matrix. A Llama layer
// (no biases) runs none of them.
func TestBiasKernels(t *testing.T) {
	m := model(t, "megatron-18b")
	for _, sp := range []bool{false, true} {
		c := gptConfig(m, 4, 8, sp, workload.RecomputeFull)
		l := mustLayer(t, c)
		sb, h, tp := float64(4*m.SeqLen), float64(m.Hidden), 8.0
		local := sb
		if sp {
			local = sb / tp
		}
		if got, want := opsNamed(l, ".bias_grad").Totals().ReadBytes, 2*(sb*(3*h/tp+4*h/tp)+2*local*h); !near(got, want) {
			t.Errorf("sp %v: bias gradients read %.0f bytes, want 2·(s·b·7h/t + 2·local·h) = %.0f", sp, got, want)
		}
		add := opsNamed(l, "attn.qkv.bias")
		if len(add) != 1 || !near(add[0].ReadBytes-2*3*h/tp, 2*sb*3*h/tp) || !near(add[0].WriteBytes, 2*sb*3*h/tp) {
			t.Errorf("sp %v: QKV bias add %+v, want one op reading and writing the QKV output", sp, add)
		}
		if re := opsNamed(l, "attn.qkv.bias.recompute"); len(re) != 1 {
			t.Errorf("sp %v: full recomputation re-runs %d QKV bias adds, want 1", sp, len(re))
		}
	}
	l := mustLayer(t, llama405B(t, Flash))
	if n := len(opsNamed(l, ".bias_grad")) + len(opsNamed(l, ".bias")); n != 0 {
		t.Errorf("a Llama layer has %d bias kernels, want 0", n)
	}
}

// TestEagerCopies: Megatron's eager attention also copies the context
// into the projection's layout (a read and a write of s·b·h/t) and
// concatenates the q, k, v gradients (a read and a write of the QKV
// output); fused attention does neither, and neither keeps bytes.
func TestEagerCopies(t *testing.T) {
	m := model(t, "megatron-18b")
	sb, h, tp := float64(4*m.SeqLen), float64(m.Hidden), 8.0
	l := mustLayer(t, gptConfig(m, 4, 8, false, workload.RecomputeNone))
	for _, c := range []struct {
		suffix string
		elems  float64
	}{{"attn.context_permute", sb * h / tp}, {"attn.qkv_split.grad", sb * 3 * h / tp}} {
		ops := opsNamed(l, c.suffix)
		if len(ops) != 1 || !near(ops[0].ReadBytes, 2*c.elems) || !near(ops[0].WriteBytes, 2*c.elems) || ops[0].SavedBytes != 0 {
			t.Errorf("%s: %+v, want one op reading and writing %.0f bytes and keeping none", c.suffix, ops, 2*c.elems)
		}
	}
	f := gptConfig(m, 4, 8, false, workload.RecomputeNone)
	f.Attention = Flash
	if n := len(opsNamed(mustLayer(t, f), "attn.context_permute")) + len(opsNamed(mustLayer(t, f), "attn.qkv_split.grad")); n != 0 {
		t.Errorf("flash attention has %d of eager's copies, want 0", n)
	}
}
