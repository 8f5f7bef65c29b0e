package training

import (
	"strings"

	"paraplay/sim/operators"
	"paraplay/sim/taskgraph"
)

// chargeHeldW works out heldW, what a microbatch keeps on each stage
// between its B and its W under a schedule that defers the W's (2BP, Rae
// et al. 2024): the inputs of every weight-gradient GEMM of the stage's
// layers and of the output head, a linear layer's input X and the
// gradient of its output dY, as the operator list's wgrad GEMMs read them
// (dW = Xᵀ·dY). X is part of what the forward kept; dY is made by B. For
// GPT's layer without tensor parallelism this is 32·s·b·h bytes in 16-bit
// (X: h, h, h and 4h wide; dY: 3h, h, 4h and h), what Qi et al. 2024
// count for a pending W. A mixture-of-experts model, which the operator
// list does not cover, is charged nothing (B frees its activations).
func (c *costs) chargeHeldW(act activations) error {
	if !act.dense {
		return nil
	}
	layer, err := heldByWgrad(operators.Layer, act.cfg)
	if err != nil {
		return err
	}
	head, err := heldByWgrad(operators.Head, act.cfg)
	if err != nil {
		return err
	}
	c.heldW = make([]float64, len(c.layers))
	for k := range c.layers {
		c.heldW[k] = layer * float64(c.layers[k])
		if k == len(c.layers)-1 {
			c.heldW[k] += head
		}
	}
	return nil
}

// heldByWgrad is the bytes the weight-gradient GEMMs of build's op list
// read besides the weights' gradient: X (K×M, at the GEMM's input type)
// and dY (K×N, in 16 bits) of dW = Xᵀ·dY, whose shape is M×N over K
// tokens. Under sequence parallelism a column-parallel layer keeps its
// input sharded t ways and gathers it again for the W (its ".regather"
// op), so only the shard is held; the row-parallel layers' dY is the
// gathered, full-width gradient either way.
func heldByWgrad(build func(operators.Config) (operators.List, error), cfg operators.Config) (float64, error) {
	l, err := build(cfg)
	if err != nil {
		return 0, err
	}
	regathered := map[string]bool{}
	for _, o := range l {
		if name, ok := strings.CutSuffix(o.Name, ".regather"); ok {
			regathered[name] = true
		}
	}
	var sum float64
	for _, o := range l {
		if o.Kind == operators.KindGEMM && o.Phase == operators.BackwardWeight {
			g := o.GEMM
			x := float64(g.M) * o.DType.Bytes()
			if regathered[strings.TrimSuffix(o.Name, ".wgrad")] {
				x /= float64(cfg.TP)
			}
			sum += float64(g.Batch) * float64(g.K) * (x + float64(g.N)*operators.BF16.Bytes())
		}
	}
	return sum, nil
}

// backwardFootprints is what the B and the W of a microbatch on stage k
// take and give back when the schedule charges the held W inputs: B
// frees the activations W does not need and, should W need more than the
// forward kept, takes the difference when it starts; W gives back the
// rest. held is the forward's footprint (the activations it takes).
func (c *costs) backwardFootprints(k int, held taskgraph.Footprint) (bTake, bGive, wGive taskgraph.Footprint) {
	w := c.heldW[k]
	bTake = taskgraph.Footprint{Bytes: max(0, w-held.Bytes)}
	bGive = taskgraph.Footprint{Bytes: max(0, held.Bytes-w), InFlight: held.InFlight}
	wGive = taskgraph.Footprint{Bytes: w}
	return bTake, bGive, wGive
}
