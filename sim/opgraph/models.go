package opgraph

import (
	"fmt"
	"strconv"
)

// ResNet50 is ResNet-50 (He et al. 2016, "Deep Residual Learning for
// Image Recognition", Table 1) as torchvision builds it (ResNet v1.5:
// the bottleneck's stride on its 3×3 convolution, not its first 1×1) for
// size×size RGB images and 1,000 classes: a 7×7/2 stem and a 3×3/2 max
// pool, then four stages of 3, 4, 6 and 3 bottlenecks (1×1, 3×3, 1×1 of
// widths 64, 128, 256, 512, expanded 4 times; the first of a stage
// projects its input with a strided 1×1), global average pooling and a
// dense layer. size must be a multiple of 32, up to MaxImage.
func ResNet50(size int) (Graph, error) {
	if size < 32 || size > MaxImage || size%32 != 0 {
		return Graph{}, fmt.Errorf("graph.image: is %d; allowed a multiple of 32 from 32 to 1024", size)
	}
	g := &Graph{Name: "resnet50-" + strconv.Itoa(size)}
	h := size / 2
	g.convBN("conv1", 3, 64, 7, 2, h)
	g.add("relu", ReLU, 64, 64, 0, 0, h)
	h /= 2
	x := g.add("maxpool", MaxPool, 64, 64, 3, 2, h)
	in := 64
	for st, blocks := range []int{3, 4, 6, 3} {
		w := 64 << st
		for b := range blocks {
			name := "layer" + strconv.Itoa(st+1) + "." + strconv.Itoa(b)
			s, hIn := 1, h
			if b == 0 && st > 0 {
				s, h = 2, h/2
			}
			g.convBN(name+".conv1", in, w, 1, 1, hIn, x)
			g.add(name+".relu1", ReLU, w, w, 0, 0, hIn)
			g.convBN(name+".conv2", w, w, 3, s, h)
			g.add(name+".relu2", ReLU, w, w, 0, 0, h)
			y := g.convBN(name+".conv3", w, 4*w, 1, 1, h)
			short := x
			if b == 0 {
				short = g.convBN(name+".downsample", in, 4*w, 1, s, h, x)
			}
			g.add(name+".add", Add, 4*w, 4*w, 0, 0, h, y, short)
			x = g.add(name+".relu3", ReLU, 4*w, 4*w, 0, 0, h)
			in = 4 * w
		}
	}
	g.add("avgpool", AvgPool, in, in, 0, 0, 1)
	g.add("fc", Dense, in, 1000, 0, 0, 1)
	return *g, g.Validate()
}

// add appends an operator of c output channels on an h×h output, reading
// from (the previous operator when from is empty), and returns its index.
// (Not inlined: the builders call it often, and the browser pays for every
// copy.)
//
//go:noinline
func (g *Graph) add(name string, k Kind, in, c, kernel, stride, h int, from ...int) int {
	if len(from) == 0 && len(g.Ops) > 0 {
		from = []int{len(g.Ops) - 1}
	}
	g.Ops = append(g.Ops, Op{Name: name, Kind: k, In: in, Out: c, Kernel: kernel, Stride: stride, H: h, W: h, Steps: 1, Inputs: from})
	return len(g.Ops) - 1
}

// convBN appends a convolution and its batch norm.
//
//go:noinline
func (g *Graph) convBN(name string, in, out, k, s, h int, from ...int) int {
	g.add(name, Conv, in, out, k, s, h, from...)
	return g.add(name+".bn", BatchNorm, out, out, 0, 0, h)
}

// Seq2SeqLSTM is the translator of Sutskever, Vinyals and Le 2014
// ("Sequence to Sequence Learning with Neural Networks", §3.4): word
// embeddings of 1,000 for an input vocabulary of 160,000 and an output
// vocabulary of 80,000, an encoder and a decoder of 4 LSTM layers of
// 1,000 cells each, and a softmax over the output vocabulary, for a
// source sentence of src words and a target of tgt.
func Seq2SeqLSTM(src, tgt int) (Graph, error) {
	if min(src, tgt) < 1 || max(src, tgt) > MaxWords {
		return Graph{}, fmt.Errorf("graph.words: is %d and %d; allowed 1..200 each", src, tgt)
	}
	const width, layers = 1000, 4
	g := &Graph{Name: "seq2seq-lstm-" + strconv.Itoa(src) + "x" + strconv.Itoa(tgt)}
	side := func(name string, vocab, steps int) int {
		e := g.add(name+".embedding", Embedding, vocab, width, 0, 0, 0)
		g.Ops[e].Inputs = nil // each side reads its own words
		for l := range layers {
			g.add(name+".lstm"+strconv.Itoa(l), LSTM, width, width, 0, 0, 0)
		}
		for i := e; i < len(g.Ops); i++ {
			g.Ops[i].Steps = steps
		}
		return len(g.Ops) - 1
	}
	enc := side("encoder", 160000, src)
	dec := side("decoder", 80000, tgt)
	g.Ops[enc+2].Inputs = append(g.Ops[enc+2].Inputs, enc) // the decoder's first layer starts from the encoder's state
	g.add("softmax", Dense, width, 80000, 0, 0, 0, dec)
	g.Ops[len(g.Ops)-1].Steps = tgt
	return *g, g.Validate()
}
