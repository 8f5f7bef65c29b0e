package workload

import (
	"math"
	"testing"
)

// TestZeROFigure1 reproduces Rajbhandari et al. 2020, Figure 1: a 7.5B
// model on 64 data-parallel GPUs with K = 12 needs 120 GB per GPU, 31.4 GB
// with P_os, 16.6 GB with P_os+g and 1.9 GB with P_os+g+p.
func TestZeROFigure1(t *testing.T) {
	const psi, nd = 7.5e9, 64
	tests := []struct {
		zero      int
		printed   float64 // GB as the figure prints it
		exact     float64 // the formula, written out
		commElems float64
	}{
		{0, 120, (2 + 2 + 12) * psi, 2 * psi},
		{1, 31.4, 2*psi + 2*psi + 12*psi/nd, 2 * psi},
		{2, 16.6, 2*psi + (2+12)*psi/nd, 2 * psi},
		{3, 1.9, (2 + 2 + 12) * psi / nd, 3 * psi},
	}
	for _, tc := range tests {
		got := ModelStateBytes(psi, tc.zero, nd)
		if !near(got.Total(), tc.exact, 1e-15) {
			t.Errorf("stage %d: %v bytes, want %v", tc.zero, got.Total(), tc.exact)
		}
		if math.Round(got.Total()/1e8)/10 != tc.printed {
			t.Errorf("stage %d: %.3f GB, Figure 1 prints %v GB", tc.zero, got.Total()/1e9, tc.printed)
		}
		if v := ZeROCommVolume(psi, tc.zero); v != tc.commElems {
			t.Errorf("stage %d: communication %v elements, want %v", tc.zero, v, tc.commElems)
		}
	}
}

func TestModelStateBreakdown(t *testing.T) {
	const psi, nd = 1e9, 8
	tests := []struct {
		zero             int
		param, grad, opt float64
	}{
		{0, 2 * psi, 2 * psi, 12 * psi},
		{1, 2 * psi, 2 * psi, 12 * psi / nd},
		{2, 2 * psi, 2 * psi / nd, 12 * psi / nd},
		{3, 2 * psi / nd, 2 * psi / nd, 12 * psi / nd},
	}
	for _, tc := range tests {
		got := ModelStateBytes(psi, tc.zero, nd)
		want := Breakdown{tc.param, tc.grad, tc.opt}
		if got != want {
			t.Errorf("stage %d: got %+v, want %+v", tc.zero, got, want)
		}
	}
	// One data-parallel rank: every stage is the baseline.
	for zero := range 4 {
		if got := ModelStateBytes(psi, zero, 1).Total(); got != 16*psi {
			t.Errorf("stage %d on one rank: %v, want 16Ψ", zero, got)
		}
	}
}

func TestZeROPanics(t *testing.T) {
	for _, f := range []func(){
		func() { ModelStateBytes(1, 4, 8) },
		func() { ModelStateBytes(1, -1, 8) },
		func() { ModelStateBytes(1, 1, 0) },
		func() { ModelStateBytes(-1, 1, 1) },
		func() { ZeROCommVolume(1, 5) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}

// TestActivationsKorthikanti checks every row of Korthikanti et al. 2022,
// Table 2, written out here on its own, for several shapes.
func TestActivationsKorthikanti(t *testing.T) {
	shapes := []struct{ s, b, h, a, t int }{
		{2048, 1, 12288, 96, 8},  // GPT-3 175B as in the paper's Table 3
		{2048, 4, 2304, 24, 1},   // Megatron 1.7B, no tensor parallelism
		{8192, 2, 4096, 32, 4},   // Llama 3 8B shapes
		{4096, 1, 20480, 128, 8}, // MT-NLG 530B at a longer sequence
		{512, 8, 1024, 16, 2},
	}
	for _, sh := range shapes {
		m := Model{Name: "x", Layers: 1, Hidden: sh.h, Heads: sh.a, SeqLen: sh.s}
		s, b, h, a, tp := float64(sh.s), float64(sh.b), float64(sh.h), float64(sh.a), float64(sh.t)
		tests := []struct {
			row  string
			sp   bool
			r    Recompute
			want float64
		}{
			{"TP", false, RecomputeNone, s * b * h * (10 + 24/tp + 5*a*s/(h*tp))},
			{"TP+SP", true, RecomputeNone, s * b * h * (34/tp + 5*a*s/(h*tp))},
			{"TP+selective", false, RecomputeSelective, s * b * h * (10 + 24/tp)},
			{"TP+SP+selective", true, RecomputeSelective, s * b * h * 34 / tp},
			{"full", false, RecomputeFull, 2 * s * b * h},
			{"full+SP", true, RecomputeFull, 2 * s * b * h},
		}
		for _, tc := range tests {
			if got := ActivationBytesPerLayer(m, sh.b, sh.t, tc.sp, tc.r); !near(got, tc.want, 1e-14) {
				t.Errorf("%+v %s: got %.0f, want %.0f", sh, tc.row, got, tc.want)
			}
		}
		// No parallelism: sbh(34 + 5as/h).
		if got, want := ActivationBytesPerLayer(m, sh.b, 1, false, RecomputeNone), s*b*h*(34+5*a*s/h); !near(got, want, 1e-14) {
			t.Errorf("%+v no parallelism: got %.0f, want %.0f", sh, got, want)
		}
	}
}

// TestActivationsContextParallel: context parallelism c gives each GPU s/c
// of the sequence, so it must equal the same model at sequence s/c.
func TestActivationsContextParallel(t *testing.T) {
	m, _ := LookupModel("llama3-70b")
	short := m
	short.SeqLen = m.SeqLen / 4
	for _, r := range []Recompute{RecomputeNone, RecomputeSelective, RecomputeFull} {
		for _, sp := range []bool{false, true} {
			got := ActivationBytesPerLayerCP(m, 1, 8, 4, sp, r)
			want := ActivationBytesPerLayer(short, 1, 8, sp, r)
			if !near(got, want, 1e-15) {
				t.Errorf("%s sp=%v: CP 4 gives %.0f, s/4 gives %.0f", r, sp, got, want)
			}
		}
	}
}

// TestActivationsPaperExample checks one number the paper states in
// words: for GPT-3 175B (s = 2048, h = 12288, a = 96) 5as/h = 80, larger
// than the 34 of everything else, which is why selective recompute pays.
func TestActivationsPaperExample(t *testing.T) {
	m, _ := LookupModel("gpt3-175b")
	none := ActivationBytesPerLayer(m, 1, 8, true, RecomputeNone)
	sel := ActivationBytesPerLayer(m, 1, 8, true, RecomputeSelective)
	if got := (none - sel) / sel; !near(got, 80.0/34, 1e-12) {
		t.Errorf("score memory / rest = %.4f, want 80/34", got)
	}
}
