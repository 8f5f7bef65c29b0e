package opgraph

import "fmt"

// ResNet50 is ResNet-50 (He et al. 2016, "Deep Residual Learning for
// Image Recognition", Table 1) as torchvision builds it (ResNet v1.5:
// the bottleneck's stride on its 3×3 convolution, not its first 1×1) for
// size×size RGB images and 1,000 classes: a 7×7/2 stem and a 3×3/2 max
// pool, then four stages of 3, 4, 6 and 3 bottlenecks (1×1, 3×3, 1×1 of
// widths 64, 128, 256, 512, expanded 4 times; the first of a stage
// projects its input with a strided 1×1), global average pooling and a
// dense layer. size must be a multiple of 32.
func ResNet50(size int) (Graph, error) {
	if size < 32 || size%32 != 0 {
		return Graph{}, fmt.Errorf("opgraph: a ResNet-50 image of %d pixels; allowed a multiple of 32 from 32", size)
	}
	g := Graph{Name: fmt.Sprintf("resnet50-%d", size)}
	add := func(o Op) int {
		if o.Steps == 0 {
			o.Steps = 1
		}
		if len(g.Ops) > 0 && o.Inputs == nil {
			o.Inputs = []int{len(g.Ops) - 1}
		}
		g.Ops = append(g.Ops, o)
		return len(g.Ops) - 1
	}
	convBN := func(name string, in, out, k, s, h int, from int) int {
		add(Op{Name: name, Kind: Conv, In: in, Out: out, Kernel: k, Stride: s, H: h, W: h, Inputs: []int{from}})
		return add(Op{Name: name + ".bn", Kind: BatchNorm, In: out, Out: out, H: h, W: h})
	}
	h := size / 2
	x := convBN("conv1", 3, 64, 7, 2, h, 0)
	g.Ops[0].Inputs = nil
	x = add(Op{Name: "relu", Kind: ReLU, In: 64, Out: 64, H: h, W: h})
	h /= 2
	x = add(Op{Name: "maxpool", Kind: MaxPool, In: 64, Out: 64, Kernel: 3, Stride: 2, H: h, W: h, Inputs: []int{x}})
	in := 64
	for st, blocks := range []int{3, 4, 6, 3} {
		w := 64 << st
		for b := 0; b < blocks; b++ {
			name := fmt.Sprintf("layer%d.%d", st+1, b)
			s, hIn := 1, h
			if b == 0 && st > 0 {
				s, h = 2, h/2
			}
			y := convBN(name+".conv1", in, w, 1, 1, hIn, x)
			y = add(Op{Name: name + ".relu1", Kind: ReLU, In: w, Out: w, H: hIn, W: hIn})
			y = convBN(name+".conv2", w, w, 3, s, h, y)
			y = add(Op{Name: name + ".relu2", Kind: ReLU, In: w, Out: w, H: h, W: h})
			y = convBN(name+".conv3", w, 4*w, 1, 1, h, y)
			short := x
			if b == 0 {
				short = convBN(name+".downsample", in, 4*w, 1, s, h, x)
			}
			add(Op{Name: name + ".add", Kind: Add, In: 4 * w, Out: 4 * w, H: h, W: h, Inputs: []int{y, short}})
			x = add(Op{Name: name + ".relu3", Kind: ReLU, In: 4 * w, Out: 4 * w, H: h, W: h})
			in = 4 * w
		}
	}
	add(Op{Name: "avgpool", Kind: AvgPool, In: in, Out: in, H: 1, W: 1})
	add(Op{Name: "fc", Kind: Dense, In: in, Out: 1000, H: 1, W: 1})
	return g, g.Validate()
}

// Seq2SeqLSTM is the translator of Sutskever, Vinyals and Le 2014
// ("Sequence to Sequence Learning with Neural Networks", §3.4): word
// embeddings of 1,000 for an input vocabulary of 160,000 and an output
// vocabulary of 80,000, an encoder and a decoder of 4 LSTM layers of
// 1,000 cells each, and a softmax over the output vocabulary, for a
// source sentence of src words and a target of tgt.
func Seq2SeqLSTM(src, tgt int) (Graph, error) {
	if src < 1 || tgt < 1 {
		return Graph{}, fmt.Errorf("opgraph: a sentence pair of %d and %d words; allowed ≥ 1 each", src, tgt)
	}
	const width, layers = 1000, 4
	g := Graph{Name: fmt.Sprintf("seq2seq-lstm-%dx%d", src, tgt)}
	side := func(name string, vocab, steps int) int {
		first := len(g.Ops)
		g.Ops = append(g.Ops, Op{Name: name + ".embedding", Kind: Embedding, In: vocab, Out: width, Steps: steps})
		if first > 0 {
			g.Ops[first].Inputs = []int{}
		}
		for l := 0; l < layers; l++ {
			g.Ops = append(g.Ops, Op{Name: fmt.Sprintf("%s.lstm%d", name, l), Kind: LSTM, In: width, Out: width, Steps: steps,
				Inputs: []int{len(g.Ops) - 1}})
		}
		return len(g.Ops) - 1
	}
	enc := side("encoder", 160000, src)
	dec := side("decoder", 80000, tgt)
	g.Ops[enc+1].Inputs = nil                              // the decoder's embedding reads its own words…
	g.Ops[enc+2].Inputs = append(g.Ops[enc+2].Inputs, enc) // …and its first layer starts from the encoder's state
	g.Ops = append(g.Ops, Op{Name: "softmax", Kind: Dense, In: width, Out: 80000, Steps: tgt, Inputs: []int{dec}})
	return g, g.Validate()
}
