// Package moe is the routing of a mixture of experts: how many token
// copies each expert of a layer receives in a training step, and so how
// much each GPU of an expert-parallel group computes, keeps and sends.
//
// A layer's router gives each expert a popularity, the share of the token
// copies it receives (Route):
//
//   - balanced: every expert 1/experts, exactly (a perfectly balanced
//     router, the ideal an auxiliary loss or DeepSeek-V3's bias
//     adjustment aims at);
//   - lognormal: each expert's weight a lognormal draw of mean 1 and the
//     given coefficient of variation, normalised;
//   - zipf: the expert of rank i (in a seeded random order) weighs
//     1/(i+1)^s;
//   - a histogram: the given relative loads, in every layer.
//
// Draws are seeded by the scenario's seed, the step and the layer, so
// that the same scenario routes the same way and each layer of each step
// differs. No expert takes more than 1/top_k of the copies (a token's
// copies go to distinct experts): the excess spreads over the others in
// proportion. With hot_experts n the n heaviest weights go to experts 0…n−1
// in every layer (a hotspot that stays on the first GPUs); without, the
// heavy experts land anywhere. Loads are the popularity's expectation
// (the copies a layer receives times each share): the multinomial's own
// noise, about 1/√load relative (under 1% at a training step's
// thousands of copies per expert), is left out.
//
// A group-limited router (DeepSeek-V3's node-limited routing, §2.1.2)
// lets each token use top_groups of the expert groups: a group's chance
// to be among them is its popularity scaled until top_groups are taken,
// capped at 1 (sampling with probability proportional to size), and its
// share of the copies that chance times its popularity, normalised. Under
// balanced routing this changes nothing; under skew it concentrates the
// copies further on the hot groups. NodesPerToken is the distinct nodes a
// token's copies reach, which a hierarchical all-to-all sends once each.
//
// A capacity factor cf caps every expert at cf · copies/experts (Lepikhin
// et al. 2020, GShard; Fedus et al. 2022, Switch); the copies above it are
// dropped and counted. 0 is dropless (Gale et al. 2023, MegaBlocks;
// Megatron-Core's default; DeepSeek-V3 drops none in training): the hot
// expert's GEMMs grow instead. For lognormal weights of cv c and cf = 1
// the dropped fraction tends, as experts grow, to E[(X − 1)⁺] =
// 2Φ(σ/2) − 1 with σ² = ln(1 + c²) (DroppedLognormal).
//
// Redundant experts (EPLB, DeepSeek-AI 2025, deepseek-ai/EPLB): n more
// replicas per layer, given one at a time to the expert whose replicas
// carry the most copies each (a replicated expert's copies split evenly),
// then every replica packed, heaviest first, onto the GPU with the least
// load among those with a free slot, (experts + n)/ep each. The loads the
// balancer sees are the layer's own (an oracle of what history-based
// balancing can reach). Without redundant experts, expert e stays on GPU
// e/(experts/ep).
package moe
