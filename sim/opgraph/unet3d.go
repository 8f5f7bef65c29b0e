//go:build !js

package opgraph

import (
	"fmt"
	"strconv"
)

// Limits of the 3-D U-Net (graph.volume, graph.channels, graph.levels).
const (
	MaxVolume   = 512
	MaxChannels = 256
	MaxLevels   = 6
)

// UNet3D is the 3-D U-Net of Çiçek, Abdulkadir, Lienkamp, Brox and
// Ronneberger 2016 ("3D U-Net: Learning Dense Volumetric Segmentation
// from Sparse Annotation", §2 and Fig. 1) for a side³ volume of 3
// channels and 3 output classes, with first width c and the given levels
// (the paper's: c = 32, 4 levels). The analysis path's level l runs two
// 3×3×3 convolutions (widths c·2^l, then c·2^(l+1)), each followed by a
// batch norm and a ReLU, after a 2×2×2 max pool for l > 0; the synthesis
// path's level l (from levels−2 down to 0) up-samples with a 2×2×2
// transposed convolution that keeps its c·2^(l+2) channels, concatenates
// the analysis path's level-l output (the skip connection), and runs two
// 3×3×3 convolutions of c·2^(l+1); a 1×1×1 convolution gives the classes.
// The convolutions are padded ("same"), as the whole-image networks LAMP
// trains are, so the output is side³: side must be a multiple of
// 2^(levels−1).
//
// Its parameters, conv weights and biases (the transposed convolutions
// without a bias, batch-norm scales and shifts apart), are the paper's
// 19,069,955 at c = 32 and 4 levels (TestUNet3D).
func UNet3D(side, c, levels int) (Graph, error) {
	switch f := 1 << max(levels-1, 0); {
	case levels < 2 || levels > MaxLevels:
		return Graph{}, fmt.Errorf("graph.levels: is %d; allowed 2..%d", levels, MaxLevels)
	case c < 1 || c > MaxChannels:
		return Graph{}, fmt.Errorf("graph.channels: is %d; allowed 1..%d", c, MaxChannels)
	case side < f || side > MaxVolume || side%f != 0:
		return Graph{}, fmt.Errorf("graph.volume: is %d; allowed a multiple of %d (2^(graph.levels−1)) up to %d", side, f, MaxVolume)
	}
	g := &Graph{Name: "unet3d-" + strconv.Itoa(side)}
	skips := make([]int, levels)
	in := 3
	for l := range levels {
		name, h := "down"+strconv.Itoa(l), side>>l
		if l > 0 {
			g.vol(name+".pool", MaxPool, in, in, 2, 2, h)
		}
		g.convBNReLU(name+".conv1", in, c<<l, h)
		in = c << (l + 1)
		skips[l] = g.convBNReLU(name+".conv2", c<<l, in, h)
	}
	for l := levels - 2; l >= 0; l-- {
		name, h, w := "up"+strconv.Itoa(l), side>>l, c<<(l+1)
		up := g.vol(name+".upconv", UpConv3D, in, in, 2, 2, h)
		g.vol(name+".concat", Concat, in+w, in+w, 0, 0, h, up, skips[l])
		g.convBNReLU(name+".conv1", in+w, w, h)
		g.convBNReLU(name+".conv2", w, w, h)
		in = w
	}
	g.vol("head", Conv3D, in, 3, 1, 1, side)
	return *g, g.Validate()
}

// vol appends a 3-D operator of an h³ output (add, with the depth set).
//
//go:noinline
func (g *Graph) vol(name string, k Kind, in, c, kernel, stride, h int, from ...int) int {
	i := g.add(name, k, in, c, kernel, stride, h, from...)
	g.Ops[i].D = h
	return i
}

// convBNReLU appends a 3×3×3 convolution, its batch norm and its ReLU,
// and returns the ReLU's index.
func (g *Graph) convBNReLU(name string, in, out, h int) int {
	g.vol(name, Conv3D, in, out, 3, 1, h)
	g.vol(name+".bn", BatchNorm, out, out, 0, 0, h)
	return g.vol(name+".relu", ReLU, out, out, 0, 0, h)
}

// conv3DParams is a Kernel³·In·Out weights, plus Out biases for a
// convolution (none for a transposed one).
func conv3DParams(o Op) int64 {
	k := int64(o.Kernel)
	p := k * k * k * int64(o.In) * int64(o.Out)
	if o.Kind == Conv3D {
		p += int64(o.Out)
	}
	return p
}

// conv3DMACs is a convolution's Kernel³·In·Out per output voxel; a
// transposed one's the same per input voxel (vox/Stride³ of them).
func conv3DMACs(o Op, vox int64) int64 {
	k, s := int64(o.Kernel), int64(max(o.Stride, 1))
	m := k * k * k * int64(o.In) * int64(o.Out) * vox
	if o.Kind == UpConv3D {
		m /= s * s * s
	}
	return m
}

// unetScenario is the U-Net of a graph section: LAMP's GPipe split (one
// stage a GPU, graph.stage_replicas unset) or data parallelism.
func unetScenario(y Settings) (Graph, error) {
	switch {
	case y.Split == Hybrid:
		return Graph{}, fmt.Errorf("graph.split: is hybrid; allowed data or model for unet3d")
	case y.StageReplicas != "":
		return Graph{}, fmt.Errorf("graph.stage_replicas: is %q; allowed empty for unet3d (one stage a GPU)", y.StageReplicas)
	}
	return UNet3D(y.Volume, y.Channels, y.Levels)
}
