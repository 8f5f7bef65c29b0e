package launch

import (
	"fmt"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/workload"
)

// shape is a model as a launch configuration gives it: the numbers that
// set its size and the style of its layers.
type shape struct {
	layers, hidden, heads, kvHeads, ffn, vocab, seq int
	experts, topK, moeFFN                           int
	ffnKind, norm, position                         string
	bias, tied                                      bool
}

// shapeOf is the resolved model of s as a shape.
func shapeOf(s scenario.Scenario) (shape, error) {
	m, err := s.Model.Resolve()
	if err != nil {
		return shape{}, fmt.Errorf("model: %w", err)
	}
	return shape{layers: m.Layers, hidden: m.Hidden, heads: m.Heads, kvHeads: m.KVHeadCount(), ffn: m.FFNWidth(),
		vocab: m.Vocab, seq: m.SeqLen, experts: m.MoE.Experts, topK: m.MoE.TopK, moeFFN: m.MoE.ExpertFFNHidden,
		ffnKind: m.FFN, norm: m.Norm, position: m.Position, bias: m.Bias, tied: m.TiedEmbeddings}.expertDefaults(), nil
}

// expertDefaults fills an expert's width (0: the dense MLP's) of a
// mixture of experts.
func (sh shape) expertDefaults() shape {
	if sh.experts > 1 && sh.moeFFN == 0 {
		sh.moeFFN = sh.ffn
	}
	return sh
}

// sameFamily reports whether preset p has the shape's width, heads, MLP
// and layer style: the shape is p, up to its layer count, vocabulary and
// sequence length (which the scenario overrides).
func sameFamily(p workload.Model, sh shape) bool {
	moeFFN := p.MoE.ExpertFFNHidden
	if p.MoE.Experts > 1 && moeFFN == 0 {
		moeFFN = p.FFNWidth()
	}
	experts := max(p.MoE.Experts, 1)
	return p.Hidden == sh.hidden && p.Heads == sh.heads && p.KVHeadCount() == sh.kvHeads && p.FFNWidth() == sh.ffn &&
		experts == max(sh.experts, 1) && (experts == 1 || p.MoE.TopK == sh.topK && moeFFN == sh.moeFFN) &&
		p.FFN == sh.ffnKind && p.Norm == sh.norm && p.Position == sh.position && p.Bias == sh.bias && p.TiedEmbeddings == sh.tied
}

// modelFor is the scenario model of a shape: the preset of its family
// with the same layer count if there is one, else the first of its
// family with model.layers (and vocab, seq_len) overridden; a GPT-style
// shape no preset has becomes a custom model. The error names the shape.
func modelFor(sh shape) (scenario.Model, error) {
	var family []workload.Model
	for _, p := range workload.Models() {
		if sameFamily(p, sh) {
			family = append(family, p)
		}
	}
	m := scenario.Model{SeqLen: sh.seq}
	for _, p := range family {
		if p.Layers == sh.layers {
			m.Preset = p.Name
		}
	}
	switch {
	case m.Preset == "" && len(family) > 0:
		m.Preset, m.Layers = family[0].Name, sh.layers
	case m.Preset == "" && sh.experts <= 1 && sh.ffnKind == workload.FFNGeLU && sh.norm == workload.NormLayer &&
		sh.position == workload.PositionLearned && sh.bias && sh.tied && sh.kvHeads == sh.heads:
		return scenario.Model{Layers: sh.layers, Hidden: sh.hidden, Heads: sh.heads, FFNHidden: sh.ffn, Vocab: sh.vocab, SeqLen: sh.seq}, nil
	case m.Preset == "":
		return m, fmt.Errorf("no model preset has hidden size %d, %d heads (%d key/value), MLP width %d (%s, %s, %s)%s; ParaPlay's presets: %s",
			sh.hidden, sh.heads, sh.kvHeads, sh.ffn, sh.ffnKind, sh.norm, sh.position, expertText(sh), presetNames())
	}
	p, _ := workload.LookupModel(m.Preset)
	if sh.vocab != p.Vocab {
		m.Vocab = sh.vocab
	}
	if sh.seq == p.SeqLen {
		m.SeqLen = 0 // the preset's
	}
	return m, nil
}

func expertText(sh shape) string {
	if sh.experts <= 1 {
		return ""
	}
	return fmt.Sprintf(", %d experts (top %d, width %d)", sh.experts, sh.topK, sh.moeFFN)
}

func presetNames() string {
	var names []string
	for _, p := range workload.Models() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}
