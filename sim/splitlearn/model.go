package splitlearn

import (
	"fmt"
	"strings"
)

// BytesPerElement is the size of an activation element: training on
// client devices runs in fp32.
const BytesPerElement = 4

// StateBytesPerParam is the model state per parameter: fp32 weights (4),
// gradients (4) and Adam's two moments (8).
const StateBytesPerParam = 16

// Layer is one layer of a model, with what the cost models need.
type Layer struct {
	// Name labels the layer, e.g. "conv3_2" or "fc".
	Name string
	// Params is its number of parameters (weights and biases).
	Params int64
	// FLOPs is its forward FLOPs per sample (2 per multiply-add); the
	// backward costs twice as much.
	FLOPs float64
	// Out is the elements per sample it passes to the next layer (after
	// pooling): what crosses the network at a cut after it.
	Out int64
	// Stored is the elements per sample it keeps for the backward: its
	// output before pooling.
	Stored int64
}

// Model is a stack of layers and its input.
type Model struct {
	// Name is the preset's key.
	Name string
	// Input is the elements of one input sample.
	Input int64
	// Layers are in forward order.
	Layers []Layer
}

// Params is the model's parameter count.
func (m Model) Params() int64 {
	return m.sum(0, len(m.Layers), func(l Layer) int64 { return l.Params })
}

// FLOPs is the forward FLOPs per sample of layers [from, to).
func (m Model) FLOPs(from, to int) float64 {
	var f float64
	for _, l := range m.Layers[from:to] {
		f += l.FLOPs
	}
	return f
}

// In is the elements per sample entering layer i.
func (m Model) In(i int) int64 {
	if i == 0 {
		return m.Input
	}
	return m.Layers[i-1].Out
}

func (m Model) sum(from, to int, f func(Layer) int64) int64 {
	var n int64
	for _, l := range m.Layers[from:to] {
		n += f(l)
	}
	return n
}

// vgg19Convs is VGG-19's configuration "E" (Simonyan & Zisserman 2015,
// Table 1): output channels of the 16 3×3 convolutions; 0 is a 2×2 max
// pool.
var vgg19Convs = []int{64, 64, 0, 128, 128, 0, 256, 256, 256, 256, 0, 512, 512, 512, 512, 0, 512, 512, 512, 512, 0}

// vgg19 builds VGG-19 for side×side RGB inputs with the given fully
// connected widths after the convolutions (the last is the classes). A
// 3×3 convolution (padding 1) from c to c' channels on an h×w map has
// 9cc' + c' parameters and 2·9cc'hw FLOPs; a pool halves h and w and is
// folded into the convolution before it.
func vgg19(name string, side int, fc []int) Model {
	m := Model{Name: name, Input: int64(3 * side * side)}
	c, h := 3, side
	block, conv := 1, 0
	for i, out := range vgg19Convs {
		if out == 0 {
			continue
		}
		conv++
		l := Layer{Name: fmt.Sprintf("conv%d_%d", block, conv), Params: int64(9*c*out + out),
			FLOPs: 2 * 9 * float64(c) * float64(out) * float64(h*h), Stored: int64(out * h * h)}
		c = out
		if i+1 < len(vgg19Convs) && vgg19Convs[i+1] == 0 {
			h /= 2
			block, conv = block+1, 0
		}
		l.Out = int64(c * h * h)
		m.Layers = append(m.Layers, l)
	}
	in := c * h * h
	for i, out := range fc {
		m.Layers = append(m.Layers, Layer{Name: fmt.Sprintf("fc%d", i+1), Params: int64(in*out + out),
			FLOPs: 2 * float64(in) * float64(out), Out: int64(out), Stored: int64(out)})
		in = out
	}
	return m
}

// Models returns the model presets: VGG-19 on ImageNet (224×224, the
// paper's classifier of 4096, 4096, 1000) and on CIFAR-10 (32×32, one
// 512→10 classifier, as split-learning experiments commonly use it).
func Models() []Model {
	return []Model{
		vgg19("vgg19", 224, []int{4096, 4096, 1000}),
		vgg19("vgg19-cifar", 32, []int{10}),
	}
}

// ModelNames lists the presets' keys.
func ModelNames() []string {
	var out []string
	for _, m := range Models() {
		out = append(out, m.Name)
	}
	return out
}

// LookupModel returns the preset called name; the error lists the known
// ones.
func LookupModel(name string) (Model, error) {
	for _, m := range Models() {
		if m.Name == name {
			return m, nil
		}
	}
	return Model{}, fmt.Errorf("unknown model %q (known: %s)", name, strings.Join(ModelNames(), ", "))
}
