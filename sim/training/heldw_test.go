package training

import (
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// twoBP is a four-layer GPT-style model (GeLU MLP, 8 heads) on two
// pipeline stages, 8 microbatches of one 512-token sequence.
func twoBP(schedule string) scenario.Scenario {
	s := scenario.Default()
	s.Strategy = Name
	s.Model = scenario.Model{Layers: 4, Hidden: 512, Heads: 8, Vocab: 1024, SeqLen: 512}
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 1, GPUsPerNode: 2}
	s.Parallel.DP, s.Parallel.PP, s.Parallel.Microbatches, s.Parallel.Schedule = 1, 2, 8, schedule
	return s
}

// activationPeaks is each GPU's peak of activation memory in tl.
func activationPeaks(t *testing.T, s scenario.Scenario) []float64 {
	t.Helper()
	tl := mustSimulate(t, s)
	out := make([]float64, len(tl.Memory))
	for i, m := range tl.Memory {
		for _, p := range m.Activations {
			out[i] = max(out[i], float64(p.Bytes))
		}
	}
	return out
}

// TestTwoBPHoldsTheWeightInputs checks 2BP's memory against closed forms.
// A pending W keeps its GEMMs' X and dY: for GPT's layer without tensor
// parallelism 32·s·b·h bytes in bf16 (X of widths h, h, h, 4h; dY of 3h,
// h, 4h, h), Qi et al. 2024's figure, and on the last stage the head's
// X and logits gradient, 2·s·b·(h + V). With a the activations of one
// microbatch on a stage (1F1B's peak over p on stage 0) and w < a those
// held for its W: GPipe-2BP peaks at m·a, as GPipe does, and 1F1B-2BP's
// stage 0 at p·a + (m − p)·w, 1F1B's p·a plus the W inputs of the
// microbatches whose B it finished before its last forward.
func TestTwoBPHoldsTheWeightInputs(t *testing.T) {
	const s, b, h, v, p, m = 512.0, 1.0, 512.0, 1024.0, 2.0, 8.0
	w0 := 2 * 32 * s * b * h // two layers on stage 0
	w1 := w0 + 2*s*b*(h+v)   // and the head on stage 1
	tr, err := newIteration(twoBP("1f1b-2bp"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tr.groups()
	if err := tr.price(); err != nil {
		t.Fatal(err)
	}
	if tr.heldW[0] != w0 || tr.heldW[1] != w1 {
		t.Errorf("held for W: %v, want [%v %v]", tr.heldW, w0, w1)
	}
	a := activationPeaks(t, twoBP("1f1b"))[0] / p
	if a <= w0 {
		t.Fatalf("a stage's activations %v ≤ its W inputs %v: the closed forms below assume w < a", a, w0)
	}
	if got, want := activationPeaks(t, twoBP("1f1b-2bp"))[0], p*a+(m-p)*w0; got != want {
		t.Errorf("1f1b-2bp stage 0 peaks at %v, want p·a + (m−p)·w = %v", got, want)
	}
	if got, want := activationPeaks(t, twoBP("gpipe-2bp"))[0], m*a; got != want {
		t.Errorf("gpipe-2bp stage 0 peaks at %v, want m·a = %v", got, want)
	}
	for _, name := range []string{"1f1b", "zb-h1"} {
		tr, _ := newIteration(twoBP(name), nil)
		tr.groups()
		if err := tr.price(); err != nil || tr.heldW != nil {
			t.Errorf("%s charges held W inputs (%v, %v): only the 2BP schedules do", name, tr.heldW, err)
		}
	}
}

// TestTwoBPIterationIsItsClosedForm: on an ideal network with synthetic
// op times, 2BP's iteration is (m+p−1)(T_F+T_B) + m·T_W, between 1F1B's
// (m+p−1)(T_F+T_B+T_W) and ZB-H1's.
func TestTwoBPIterationIsItsClosedForm(t *testing.T) {
	ms := units.Millisecond
	for _, name := range []string{"gpipe-2bp", "1f1b-2bp"} {
		s := scenario.Default()
		s.Strategy, s.GPUs, s.Cluster.Network = Name, 4, "ideal"
		s.Model.Synthetic = scenario.Synthetic{Forward: ms, BackwardInput: 3 * ms / 2, BackwardWeight: 7 * ms / 10}
		s.Parallel.PP, s.Parallel.Microbatches, s.Parallel.Schedule = 4, 8, name
		tl := mustSimulate(t, s)
		if want := 11*(ms+3*ms/2) + 8*7*ms/10; tl.End != want {
			t.Errorf("%s: iteration %v, want (m+p−1)(T_F+T_B) + m·T_W = %v", name, tl.End, want)
		}
	}
}

// TestHeldWUnderTensorParallelism: with tensor parallelism t a GPT layer's
// W inputs are X of widths h, h/t, h, 4h/t and dY of 3h/t, h, 4h/t, h
// (the row-parallel layers' output gradients are full width), s·b·h(8 +
// 24/t) bytes; with sequence parallelism the column-parallel inputs are
// held as their shards and gathered again for the W, s·b·h(4 + 28/t).
func TestHeldWUnderTensorParallelism(t *testing.T) {
	const s, b, h = 512.0, 1.0, 512.0
	for _, c := range []struct {
		tp   int
		sp   bool
		want float64
	}{
		{2, false, s * b * h * (8 + 24.0/2)},
		{2, true, s * b * h * (4 + 28.0/2)},
		{4, true, s * b * h * (4 + 28.0/4)},
	} {
		sc := twoBP("1f1b-2bp")
		sc.Cluster.GPUsPerNode = 2 * c.tp
		sc.Parallel.TP, sc.Parallel.SequenceParallel = c.tp, c.sp
		tr, err := newIteration(sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		tr.groups()
		if err := tr.price(); err != nil {
			t.Fatal(err)
		}
		if got := tr.heldW[0] / 2; got != c.want { // two layers on stage 0
			t.Errorf("tp %d, sp %v: a layer holds %v bytes for its W, want %v", c.tp, c.sp, got, c.want)
		}
	}
}
