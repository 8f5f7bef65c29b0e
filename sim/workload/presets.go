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
	models := presets()
	sortByName(models)
	return models
}

// presets builds the catalog, unsorted.
func presets() []Model {
	const megatronVocab = 51200
	mixtral := llama("mixtral-8x7b", 32, 4096, 32, 8, 14336, 32000, 32768, 46.7e9, srcMixtral)
	mixtral.MoE, mixtral.PublishedActive = MoE{Experts: 8, TopK: 2}, 12.9e9
	gpt3XL := gpt("gpt3-1.3b", 24, 2048, 16, 50257, 1.3e9, srcGPT3XL)
	neox := gpt("gpt-neox-20b", 44, 6144, 64, 50432, 20554567680, srcNeoX)
	neox.Position, neox.TiedEmbeddings = PositionRoPE, false
	// The catalog grows by appends into one buffer: a slice literal of
	// Models would be an array the heap holds, whose type carries an
	// equality function of several KB in the browser's download.
	models := append(make([]Model, 0, 24),
		gpt3XL, neox,
		gpt("gpt3-175b", 96, 12288, 96, 50257, 175.0e9, srcGPT3),
		llama("llama3-8b", 32, 4096, 32, 8, 14336, 128256, 8192, 8.03e9, srcLlama8),
		llama("llama3-70b", 80, 8192, 64, 8, 28672, 128256, 8192, 70.6e9, srcLlama70),
		llama("llama3-405b", 126, 16384, 128, 8, 53248, 128256, 8192, 405e9, srcLlama405),
		mixtral)
	models = moePresets(models)
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
	return models
}

// moePresets appends the mixtures of experts after Mixtral 8x7B, each with the
// shapes of its released config.json (sources.go says where each figure
// was confirmed).
func moePresets(models []Model) []Model {
	x22 := llama("mixtral-8x22b", 56, 6144, 48, 8, 16384, 32000, 65536, 141e9, srcMixtral22)
	x22.MoE, x22.PublishedActive = MoE{Experts: 8, TopK: 2}, 39e9
	// DeepSeek-V3: MLA, 1 shared + 256 routed experts of 2,048, top 8 in
	// at most 4 of 8 groups, the first 3 layers dense (18,432 wide); 4K
	// pre-training sequences (§4.2).
	v3 := llama("deepseek-v3", 61, 7168, 128, 0, 18432, 129280, 4096, 671e9, srcDeepSeekV3)
	v3.MoE = MoE{Experts: 256, TopK: 8, ExpertFFNHidden: 2048, SharedExperts: 1, DenseLayers: 3,
		Router: RouterGroupLimited, Groups: 8, TopGroups: 4}
	v3.MLA = MLA{KVLoRARank: 512, QLoRARank: 1536, RopeHeadDim: 64, NopeHeadDim: 128, VHeadDim: 128}
	v3.PublishedActive = 36.6e9
	qwen := llama("qwen3-235b-a22b", 94, 4096, 64, 4, 12288, 151936, 4096, 235e9, srcQwen3)
	qwen.HeadDimension = 128
	qwen.MoE, qwen.PublishedActive = MoE{Experts: 128, TopK: 8, ExpertFFNHidden: 1536}, 22e9
	// gpt-oss-120b: biases on attention and experts, 64 heads of 64 over
	// a hidden state of 2,880; 4K-token pre-training context.
	oss := llama("gpt-oss-120b", 36, 2880, 64, 8, 2880, 201088, 4096, 116.83e9, srcGPTOSS)
	oss.HeadDimension, oss.Bias = 64, true
	oss.MoE, oss.PublishedActive = MoE{Experts: 128, TopK: 4}, 5.13e9
	return append(models, x22, v3, qwen, oss)
}

// catalog is the preset catalog, built once when the package starts (a
// few KB, and read-only after, so the planner's goroutines share it):
// LookupModel runs several times per simulated plan (validation and
// pricing resolve the model), and rebuilding the catalog each time was 11%
// of the planner's CPU. A Model holds no slice, map or pointer, so the
// copy LookupModel returns shares nothing with the catalog and callers may
// change it freely (TestModelHoldsNoReference).
var catalog = presets()

// LookupModel returns the preset called name; the error of an unknown name
// lists the known ones.
func LookupModel(name string) (Model, error) {
	for _, m := range catalog {
		if m.Name == name {
			return m, nil
		}
	}
	all := Models()
	names := make([]string, len(all))
	for i, m := range all {
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
