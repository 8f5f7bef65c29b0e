package opgraph

// Kind is what an operator computes.
type Kind uint8

// The operator kinds.
const (
	Conv      Kind = iota // 2-D convolution, no bias (a batch norm follows)
	BatchNorm             // per-channel scale and shift
	ReLU
	MaxPool
	AvgPool   // global average pooling
	Add       // a residual sum
	Dense     // a fully connected layer with bias
	Embedding // a lookup of one row a word
	LSTM      // one LSTM layer run over Steps time steps
	// The 3-D U-Net's (unet3d.go): a Kernel³ convolution with a bias, a
	// Kernel³/Stride transposed convolution without one, a channel concat.
	Conv3D
	UpConv3D
	Concat
)

// Op is one operator of a graph, with the shapes of one sample.
type Op struct {
	// Name labels the operator (e.g. "layer2.0.conv1").
	Name string
	// Kind is what it computes.
	Kind Kind
	// In and Out are the input and output channels (Conv, BatchNorm), the
	// input and output features (Dense), the vocabulary and width
	// (Embedding: In = vocabulary, Out = width), or the input and hidden
	// widths (LSTM).
	In, Out int
	// Kernel and Stride are a convolution's (or pooling's) square window
	// and step.
	Kernel, Stride int
	// H and W are the output's spatial size (Conv, BatchNorm, ReLU,
	// pools, Add); 1 for a dense layer.
	H, W int
	// D is a 3-D output's depth (0 for 2-D operators).
	D int
	// Steps is the time steps an LSTM or embedding runs over (1 else).
	Steps int
	// Inputs are the indexes of the operators whose outputs this one
	// reads (the graph's edges); empty for the first.
	Inputs []int
}

// Graph is a workload as operators in a topological order.
type Graph struct {
	// Name labels the workload.
	Name string
	// Ops are the operators, each after every operator it reads.
	Ops []Op
}

// Params is the operator's trainable parameters: a convolution's
// Kernel²·In·Out weights (no bias), a batch norm's 2 per channel, a dense
// layer's In·Out + Out, an embedding's In·Out, an LSTM layer's four gates
// 4·(In·Out + Out·Out + Out) (one bias a gate, as Sutskever et al. count
// them); none for the rest.
func (o Op) Params() int64 {
	in, out, k := int64(o.In), int64(o.Out), int64(o.Kernel)
	switch o.Kind {
	case Conv:
		return k * k * in * out
	case BatchNorm:
		return 2 * out
	case Dense:
		return in*out + out
	case Embedding:
		return in * out
	case LSTM:
		return 4 * (in*out + out*out + out)
	case Conv3D, UpConv3D:
		return conv3DParams(o)
	}
	return 0
}

// MACs is the multiply-accumulates of one sample's forward pass through
// the operator, counted as fvcore and torchvision count them (a
// convolution's Kernel²·In·Out per output pixel, a dense layer's In·Out,
// an LSTM step's 4·(In + Out)·Out gate products), the ops without
// products (norms, activations, pools, sums, lookups) counting none.
// FLOPs are 2·MACs.
func (o Op) MACs() int64 {
	in, out, k := int64(o.In), int64(o.Out), int64(o.Kernel)
	hw := int64(o.H) * int64(o.W) * int64(max(o.D, 1))
	switch o.Kind {
	case Conv3D, UpConv3D:
		return conv3DMACs(o, hw)
	case Conv:
		return k * k * in * out * hw
	case Dense:
		return in * out * int64(max(o.Steps, 1))
	case LSTM:
		return 4 * (in + out) * out * int64(max(o.Steps, 1))
	}
	return 0
}

// Params is the graph's trainable parameters.
func (g Graph) Params() int64 {
	var n int64
	for _, o := range g.Ops {
		n += o.Params()
	}
	return n
}

// MACs is one sample's forward multiply-accumulates.
func (g Graph) MACs() int64 {
	var n int64
	for _, o := range g.Ops {
		n += o.MACs()
	}
	return n
}
