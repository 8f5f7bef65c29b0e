package operators

// mlaBlocks is multi-head latent attention's projections (DeepSeek-AI
// 2024, DeepSeek-V2 §2.1), between the layer's norm and the fused
// attention kernel, as training runs them (the up-projections explicit):
// the query's down-projection to its latent, an RMSNorm, its
// up-projection to every local head's nope and rope parts; the key-value
// down-projection to the latent and the shared rotary key, an RMSNorm, the
// up-projection to every local head's key and value; then RoPE on the
// rotary parts. The down-projections are replicated over the
// tensor-parallel GPUs (Megatron-Core duplicates them), so they run on
// every token at full width on each; the up-projections split by heads.
// The down-projections share one input, kept once.
func mlaBlocks(c Config, sh shape, inSaved, regather float64) []block {
	x := c.Model.MLA
	qr, kvr, rope := float64(x.QLoRARank), float64(x.KVLoRARank), float64(x.RopeHeadDim)
	nope := float64(x.NopeHeadDim)
	latent := func(w float64) float64 { return sh.tokens * w * sh.linear.Bytes() }
	var bs []block
	if qr > 0 {
		bs = append(bs,
			discarded(linear("attn.q_down", sh, sh.tokens, sh.h, qr, inSaved, regather), LayerNorm, inSaved),
			latentNorm("attn.q_norm", c, sh, qr),
			redone(linear("attn.q_up", sh, sh.tokens, qr, sh.heads*sh.d, latent(qr), 0), MLAUpProj))
	} else {
		bs = append(bs, redone(discarded(linear("attn.q_up", sh, sh.tokens, sh.h, sh.heads*sh.d, inSaved, regather), LayerNorm, inSaved), MLAUpProj))
	}
	bs = append(bs,
		linear("attn.kv_down", sh, sh.tokens, sh.h, kvr+rope, 0, 0),
		latentNorm("attn.kv_norm", c, sh, kvr),
		redone(linear("attn.kv_up", sh, sh.tokens, kvr, sh.heads*(nope+sh.dv), latent(kvr), 0), MLAUpProj))
	if rope > 0 {
		bs = append(bs, redone(rotary(c, sh, sh.tokens*(sh.heads+1)*rope), MLAUpProj))
	}
	return bs
}

// latentNorm is an RMSNorm over a latent of width w on every token: it
// keeps its input and each token's fp32 rstd.
func latentNorm(name string, c Config, sh shape, w float64) block {
	n := sh.tokens * w
	b := pair(name, KindReduction, c.activationDType(), n, rmsNormFLOPs, n*sh.act+w*sh.act, n*sh.linear.Bytes(), n*sh.act, 3*n*sh.act, n*sh.act)
	b.fwd.SavedStats = sh.tokens * FP32.Bytes()
	return b
}
