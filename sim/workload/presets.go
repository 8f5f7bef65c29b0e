package workload

import (
	"fmt"
	"strings"
)

// The sources of the preset shapes (Model.Source) are in sources.go; the
// browser, which never shows them, carries empty ones (sources_js.go).

// gpt is a GPT-2/3-style layer stack: MHA, 4h GeLU MLP, LayerNorm, biases,
// learned positions, tied embeddings.
func gpt(name string, layers, hidden, heads, vocab int, published float64, source string) Model {
	return Model{
		Name: name, Layers: layers, Hidden: hidden, Heads: heads,
		FFN: FFNGeLU, Norm: NormLayer, Bias: true, Position: PositionLearned, TiedEmbeddings: true,
		Vocab: vocab, SeqLen: 2048, PublishedParams: published, Source: source,
	}
}

// llama is a Llama-3-style layer stack: GQA, SwiGLU, RMSNorm, no biases,
// RoPE, untied output head.
func llama(name string, layers, hidden, heads, kvHeads, ffn, vocab, seq int, published float64, source string) Model {
	return Model{
		Name: name, Layers: layers, Hidden: hidden, Heads: heads, KVHeads: kvHeads, FFNHidden: ffn,
		FFN: FFNSwiGLU, Norm: NormRMS, Position: PositionRoPE,
		Vocab: vocab, SeqLen: seq, PublishedParams: published, Source: source,
	}
}

// Models returns the preset catalog sorted by name. Every call builds a
// fresh slice.
func Models() []Model {
	const megatronVocab = 51200
	mixtral := llama("mixtral-8x7b", 32, 4096, 32, 8, 14336, 32000, 32768, 46.7e9, srcMixtral)
	mixtral.Experts, mixtral.TopK = 8, 2
	gpt3XL := gpt("gpt3-1.3b", 24, 2048, 16, 50257, 1.3e9, srcGPT3XL)
	neox := gpt("gpt-neox-20b", 44, 6144, 64, 50432, 20554567680, srcNeoX)
	neox.Position, neox.TiedEmbeddings = PositionRoPE, false
	models := []Model{
		gpt3XL, neox,
		gpt("gpt3-175b", 96, 12288, 96, 50257, 175.0e9, srcGPT3),
		llama("llama3-8b", 32, 4096, 32, 8, 14336, 128256, 8192, 8.03e9, srcLlama8),
		llama("llama3-70b", 80, 8192, 64, 8, 28672, 128256, 8192, 70.6e9, srcLlama70),
		llama("llama3-405b", 126, 16384, 128, 8, 53248, 128256, 8192, 405e9, srcLlama405),
		mixtral,
	}
	// Narayanan et al. 2021, Table 1: (parameters in billions, heads, hidden, layers).
	for _, r := range []struct {
		name                  string
		billions              float64
		heads, hidden, layers int
	}{
		{"1.7b", 1.7, 24, 2304, 24}, {"3.6b", 3.6, 32, 3072, 30}, {"7.5b", 7.5, 32, 4096, 36},
		{"18b", 18.4, 48, 6144, 40}, {"39b", 39.1, 64, 8192, 48}, {"76b", 76.1, 80, 10240, 60},
		{"145b", 145.6, 96, 12288, 80}, {"310b", 310.1, 128, 16384, 96}, {"530b", 529.6, 128, 20480, 105},
		{"1t", 1008.0, 160, 25600, 128},
	} {
		models = append(models, gpt("megatron-"+r.name, r.layers, r.hidden, r.heads, megatronVocab, r.billions*1e9, srcMegatron))
	}
	sortByName(models)
	return models
}

// LookupModel returns the preset called name; the error of an unknown name
// lists the known ones.
func LookupModel(name string) (Model, error) {
	all := Models()
	names := make([]string, len(all))
	for i, m := range all {
		if m.Name == name {
			return m, nil
		}
		names[i] = m.Name
	}
	return Model{}, fmt.Errorf("workload: unknown model %q (known: %s)", name, strings.Join(names, ", "))
}

// sortByName orders the presets by name with an insertion sort: the list
// is short and its names distinct, so any sort gives this order, and this
// one passes nothing through an interface. Sorting with package sort or
// slices makes the linker count Model as converted to an interface, and
// Ebitengine's text/template then keeps every exported method of it and
// of the types it holds in the wasm.
func sortByName(models []Model) {
	for i := 1; i < len(models); i++ {
		for j := i; j > 0 && models[j].Name < models[j-1].Name; j-- {
			models[j], models[j-1] = models[j-1], models[j]
		}
	}
}
