//go:build !js

package opgraph

import "fmt"

// The graph's own check is host-only: the browser builds only the preset
// graphs (ResNet50, Seq2SeqLSTM), which pass it by their tests
// (validate_js.go).

// Validate checks every operator's shape and that each reads only
// operators before it.
func (g Graph) Validate() error {
	if len(g.Ops) == 0 {
		return fmt.Errorf("opgraph %q: no operators", g.Name)
	}
	for i, o := range g.Ops {
		if o.In < 0 || o.Out < 1 || o.H < 0 || o.W < 0 || o.Kernel < 0 || o.Stride < 0 || o.Steps < 0 {
			return fmt.Errorf("opgraph %q: op %d (%s): a negative or zero shape", g.Name, i, o.Name)
		}
		for _, j := range o.Inputs {
			if j < 0 || j >= i {
				return fmt.Errorf("opgraph %q: op %d (%s) reads op %d, which does not come before it", g.Name, i, o.Name, j)
			}
		}
	}
	return nil
}

// String is the kind's name: conv, batchnorm, relu, maxpool, avgpool,
// add, dense, embedding or lstm.
func (k Kind) String() string {
	names := [...]string{"conv", "batchnorm", "relu", "maxpool", "avgpool", "add", "dense", "embedding", "lstm", "conv3d", "upconv3d", "concat"}
	if int(k) < len(names) {
		return names[k]
	}
	return "kind(" + fmt.Sprint(uint8(k)) + ")"
}
