package operators

import (
	"fmt"
	"strings"
)

// Modules is a set of a layer's parts that selective recomputation
// re-runs, after Megatron-Core's recompute_modules (TransformerConfig,
// megatron/core/transformer/transformer_config.py). CoreAttn re-runs the
// attention core from its inputs; the other three discard an output
// after its consumer has read it and rebuild it from the kept input just
// before the backward pass (Megatron-Core's output-discarding
// checkpoint): the backward pass then finds the tensor again, and the
// forward keeps it no longer. DeepSeek-V3 trains with the last three
// (DeepSeek-AI 2024, §3.2.3 and §3.3.3).
type Modules uint8

// The modules selective recomputation can re-run.
const (
	// CoreAttn is the attention core: Korthikanti et al. 2022's selective
	// recomputation, the default.
	CoreAttn Modules = 1 << iota
	// MoEAct is a mixture of experts' activation function: its output,
	// the down projection's input, is rebuilt from the gate and up
	// outputs.
	MoEAct
	// LayerNorm is both pre-norms: their outputs, the inputs of the
	// projections that follow, are rebuilt from the layer's input and
	// the attention's residual.
	LayerNorm
	// MLAUpProj is multi-head latent attention's up-projections and
	// rotary embedding: the full-width Q, K and V the attention kernel
	// keeps are rebuilt from the latents.
	MLAUpProj
)

// moduleNames are the modules in Megatron-Core's spelling, bit by bit.
var moduleNames = [...]string{"core_attn", "moe_act", "layernorm", "mla_up_proj"}

// ParseModules reads a comma-separated list of module names; empty is
// no module.
func ParseModules(s string) (Modules, error) {
	var m Modules
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		i := 0
		for i < len(moduleNames) && moduleNames[i] != name {
			i++
		}
		if i == len(moduleNames) {
			return 0, fmt.Errorf("%q is not a module; allowed: %s", name, strings.Join(moduleNames[:], ", "))
		}
		m |= 1 << i
	}
	return m, nil
}

// String is m in ParseModules' form.
func (m Modules) String() string {
	var names []string
	for i, n := range moduleNames {
		if m&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ",")
}

// modules is the set c's selective recomputation re-runs: RecomputeModules,
// or the attention core when it names none.
func (c Config) modules() Modules {
	if c.RecomputeModules == 0 {
		return CoreAttn
	}
	return c.RecomputeModules
}
