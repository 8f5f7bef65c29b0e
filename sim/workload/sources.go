//go:build !js

package workload

// Sources of the preset shapes (Model.Source), printed by paraplay presets.
const (
	srcGPT3     = "Brown et al. 2020, \"Language Models are Few-Shot Learners\" (GPT-3), Table 2.1; vocabulary 50,257 (GPT-2 BPE) and context 2,048 from §2.1"
	srcMegatron = "Narayanan et al. 2021, \"Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM\" (SC'21), " +
		"Table 1 (weak scaling): heads, hidden, layers and parameters; vocabulary 51,200 and sequence 2,048 from §5.1"
	srcLlama3 = "Dubey et al. 2024, \"The Llama 3 Herd of Models\", Table 3 and §3.2 (8K-token pre-training sequences); " +
		"vocabulary 128,256 and untied embeddings from the released config.json (meta-llama/"
	srcNeoX = "Black et al. 2022, \"GPT-NeoX-20B: An Open-Source Autoregressive Language Model\": 44 layers, hidden 6,144, 64 heads, " +
		"2,048 tokens, rotary positions, LayerNorm, untied embeddings (EleutherAI/gpt-neox configs/20B.yml); vocabulary padded to 50,432 " +
		"and 20,554,567,680 parameters from the released model (EleutherAI/gpt-neox-20b card and config); its parallel attention+MLP residual is not modelled"
	srcMixtral = "Jiang et al. 2024, \"Mixtral of Experts\", Table 1 and §2 (46.7B total, 12.9B active parameters, 32K context); " +
		"vocabulary and widths from mistralai/Mixtral-8x7B-v0.1 config.json"
	srcMixtral22 = "Mistral AI, \"Cheaper, Better, Faster, Stronger\" (Mixtral 8x22B announcement, April 2024): 141B total, 39B active parameters, " +
		"64K context; shapes from mistral-community/Mixtral-8x22B-v0.1 config.json (hidden 6,144, 56 layers, 48 heads, 8 KV heads, " +
		"intermediate 16,384, 8 experts top 2, vocabulary 32,000), read through copies found with the search tool"
	srcDeepSeekV3 = "DeepSeek-AI 2024, \"DeepSeek-V3 Technical Report\" (arXiv 2412.19437), §2 and §4.2 (4K pre-training sequences); " +
		"shapes from deepseek-ai/DeepSeek-V3 config.json (hidden 7,168, 61 layers, 128 heads, q_lora_rank 1,536, kv_lora_rank 512, " +
		"rope 64, nope 128, v 128, intermediate 18,432, moe_intermediate 2,048, 256 routed + 1 shared experts, top 8, n_group 8, " +
		"topk_group 4, first_k_dense_replace 3, vocabulary 129,280, 1 MTP module) and Megatron-Bridge's recipe; 671B total and 36.6B " +
		"active (\"including 0.9B for the output Head\", the input embedding left out; the report rounds to 37B) from the repository's " +
		"README_WEIGHTS.md, all read through copies found with the search tool"
	srcQwen3 = "Qwen Team 2025, \"Qwen3 Technical Report\" and the Qwen/Qwen3-235B-A22B model card (235B total, 22B activated); " +
		"shapes as THUDM/slime's Megatron arguments for the model give them (94 layers, hidden 4,096, 64 heads of 128, 4 KV groups, " +
		"128 experts of 1,536, top 8, vocabulary 151,936, untied): read through the search tool. Its per-head QK RMSNorms " +
		"(256 weights a layer) are left out"
	srcGPTOSS = "OpenAI 2025, \"gpt-oss-120b & gpt-oss-20b Model Card\" (arXiv 2508.10925), Table 1: 116.83B total and 5.13B active " +
		"parameters (the input embedding left out), confirmed by two copies found with the search tool; shapes from the gpt-oss " +
		"config (vLLM's and Transformers' GptOssConfig defaults: 36 layers, hidden 2,880, 64 heads of 64, 8 KV heads, 128 experts " +
		"of 2,880, top 4, vocabulary 201,088, biases). Not modelled: the alternating 128-token sliding-window layers (priced as full " +
		"causal attention), the attention sinks and router biases (64 and 128 weights a layer)"
	srcGPT3XL = srcGPT3 + ". Table 2.1 prints 24 heads of 128 for d_model 2,048, which cannot both hold; " +
		"we keep d_head 128 and use 16 heads (attention head count changes no parameter and no FLOP count)"
	srcLlama8   = srcLlama3 + "Meta-Llama-3-8B); 8.03B is the count Hugging Face shows for the released checkpoint, which the paper rounds to 8B"
	srcLlama70  = srcLlama3 + "Meta-Llama-3-70B); 70.6B is the count Hugging Face shows for the released checkpoint, which the paper rounds to 70B"
	srcLlama405 = srcLlama3 + "Llama-3.1-405B); 405B as the paper prints"
)
