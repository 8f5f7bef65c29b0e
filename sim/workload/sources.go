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
	srcGPT3XL = srcGPT3 + ". Table 2.1 prints 24 heads of 128 for d_model 2,048, which cannot both hold; " +
		"we keep d_head 128 and use 16 heads (attention head count changes no parameter and no FLOP count)"
	srcLlama8   = srcLlama3 + "Meta-Llama-3-8B); 8.03B is the count Hugging Face shows for the released checkpoint, which the paper rounds to 8B"
	srcLlama70  = srcLlama3 + "Meta-Llama-3-70B); 70.6B is the count Hugging Face shows for the released checkpoint, which the paper rounds to 70B"
	srcLlama405 = srcLlama3 + "Llama-3.1-405B); 405B as the paper prints"
)
