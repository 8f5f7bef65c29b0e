package opgraph

import (
	"math"
	"testing"
)

// TestResNet50 holds ResNet-50 at 224×224 to torchvision's published
// figures for resnet50 (ResNet50_Weights.IMAGENET1K_V1, the model page at
// pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html,
// read through the search tool on 2026-12-05): num_params 25,557,032
// exactly, and GFLOPS 4.09 — fvcore's count, one multiply-accumulate as
// one FLOP — within 2%. He et al. 2016's Table 1 gives 3.8×10⁹ for the
// original v1 (stride on the first 1×1); torchvision's v1.5 moves it to the
// 3×3, which computes more.
func TestResNet50(t *testing.T) {
	g, err := ResNet50(224)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.Params(), int64(25557032); got != want {
		t.Errorf("ResNet-50 parameters %d, want %d (torchvision)", got, want)
	}
	macs := float64(g.MACs())
	if rel := macs/4.09e9 - 1; math.Abs(rel) > 0.02 {
		t.Errorf("ResNet-50 forward %.4g MACs per 224² image, want 4.09e9 within 2%% (%+.2f%%)", macs, 100*rel)
	}
	t.Logf("ResNet-50 at 224²: %d parameters, %.4g MACs (%+.2f%% against torchvision's 4.09 G), %.4g forward FLOPs", g.Params(), macs, 100*(macs/4.09e9-1), 2*macs)
	convs := 0
	for _, o := range g.Ops {
		if o.Kind == Conv {
			convs++
		}
	}
	if convs != 53 { // 1 stem + 16 blocks × 3 + 4 projections
		t.Errorf("%d convolutions, want 53", convs)
	}
}

// TestSeq2SeqLSTM holds the translator to Sutskever et al. 2014, §3.4:
// "384M parameters of which 64M are pure recurrent connections (32M for
// the encoder and 32M for the decoder)" (paraphrased), within 1% each; and
// its forward MACs per sentence pair to the closed form from those
// weights: every recurrent weight once per word on its side, and the
// softmax's 80M once per target word.
func TestSeq2SeqLSTM(t *testing.T) {
	g, err := Seq2SeqLSTM(30, 30)
	if err != nil {
		t.Fatal(err)
	}
	var recurrent int64
	for _, o := range g.Ops {
		if o.Kind == LSTM {
			recurrent += o.Params()
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"parameters", float64(g.Params()), 384e6}, {"recurrent parameters", float64(recurrent), 64e6}} {
		if rel := c.got/c.want - 1; math.Abs(rel) > 0.01 {
			t.Errorf("seq2seq LSTM %s %.4g, want %.4g within 1%% (%+.2f%%)", c.name, c.got, c.want, 100*rel)
		}
	}
	// 4 layers × 4 gates × (1000 + 1000) × 1000 per word a side, and the
	// softmax 1000 × 80,000 per target word.
	want := int64(30)*4*4*2000*1000*2 + 30*1000*80000
	if got := g.MACs(); got != want {
		t.Errorf("seq2seq LSTM forward MACs %d for 30 + 30 words, want %d", got, want)
	}
	t.Logf("seq2seq LSTM: %d parameters (%d recurrent), %.4g forward MACs for a 30-word pair", g.Params(), recurrent, float64(g.MACs()))
}

// TestBadShapes checks that bad sizes are refused naming what is allowed.
func TestBadShapes(t *testing.T) {
	if _, err := ResNet50(100); err == nil {
		t.Error("ResNet50(100): no error, want one (a multiple of 32)")
	}
	if _, err := Seq2SeqLSTM(0, 3); err == nil {
		t.Error("Seq2SeqLSTM(0, 3): no error")
	}
	bad := Graph{Name: "x", Ops: []Op{{Name: "a", Kind: ReLU, Out: 1, Inputs: []int{0}}}}
	if err := bad.Validate(); err == nil {
		t.Error("an op reading itself: no error")
	}
}
