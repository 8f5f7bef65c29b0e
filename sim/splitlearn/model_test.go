package splitlearn

import (
	"math"
	"testing"
)

// TestVGG19MatchesPublishedCounts checks the layer table against figures
// published independently of it: torchvision's model card for vgg19
// (143,667,240 parameters, 19.63 GFLOPS counted as multiply-adds).
func TestVGG19MatchesPublishedCounts(t *testing.T) {
	m, err := LookupModel("vgg19")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Params(), int64(143_667_240); got != want {
		t.Errorf("vgg19 parameters = %d, want %d", got, want)
	}
	macs := m.FLOPs(0, len(m.Layers)) / 2
	if math.Abs(macs/19.63e9-1) > 0.005 {
		t.Errorf("vgg19 multiply-adds = %.4g, want 19.63e9 within 0.5%%", macs)
	}
	if got := len(m.Layers); got != 19 {
		t.Errorf("vgg19 has %d layers, want 19 (16 convolutions, 3 fully connected)", got)
	}
}

// TestVGG19CIFAR: the same 16 convolutions (20,024,384 parameters, the
// ImageNet total less its three fully connected layers) and a 512→10
// classifier on a 1×1×512 map.
func TestVGG19CIFAR(t *testing.T) {
	m, _ := LookupModel("vgg19-cifar")
	fcImageNet := int64(25088*4096+4096) + int64(4096*4096+4096) + int64(4096*1000+1000)
	if got, want := m.Params(), int64(143_667_240)-fcImageNet+512*10+10; got != want {
		t.Errorf("vgg19-cifar parameters = %d, want %d", got, want)
	}
	// After conv1_2 and its pool: 64 channels of 16×16.
	if got, want := m.Layers[1].Out, int64(64*16*16); got != want {
		t.Errorf("cut activations after conv1_2 = %d elements, want %d", got, want)
	}
	if got, want := m.Layers[1].Stored, int64(64*32*32); got != want {
		t.Errorf("conv1_2 keeps %d elements, want %d (before the pool)", got, want)
	}
}

func TestLookupModelUnknown(t *testing.T) {
	if _, err := LookupModel("resnet"); err == nil {
		t.Error("want an error for an unknown model")
	}
}
