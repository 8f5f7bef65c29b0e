package workload_test

import (
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

func ExampleLookupModel() {
	m, err := workload.LookupModel("llama3-8b")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %d layers, hidden %d, %d heads (%d kv), %s MLP of %d\n",
		m.Name, m.Layers, m.Hidden, m.Heads, m.KVHeadCount(), m.FFN, m.FFNWidth())
	_, err = workload.LookupModel("llama-8b")
	fmt.Println(err != nil)
	// Output:
	// llama3-8b: 32 layers, hidden 4096, 32 heads (8 kv), swiglu MLP of 14336
	// true
}

func ExampleParams() {
	m, _ := workload.LookupModel("llama3-70b")
	p := workload.Params(m)
	fmt.Printf("embedding %d + %d layers × %d + norm %d + head %d = %d\n",
		p.Embedding, p.Layers, p.PerLayer, p.FinalNorm, p.Head, p.Total())
	// Output:
	// embedding 1050673152 + 80 layers × 855654400 + norm 8192 + head 1050673152 = 70553706496
}

func ExampleNarayananParams() {
	m, _ := workload.LookupModel("megatron-530b")
	fmt.Printf("closed form %.1fB, exact %.1fB\n",
		workload.NarayananParams(m.Layers, m.Hidden, m.Vocab, m.SeqLen)/1e9, float64(workload.Params(m).Total())/1e9)
	// Output:
	// closed form 529.6B, exact 529.6B
}

func ExampleLayerFLOPs() {
	m, _ := workload.LookupModel("gpt3-175b")
	// One layer, microbatch 1, tensor parallel 8: the F, B and W a pipeline
	// stage schedules, in TFLOPs.
	op := workload.LayerFLOPs(m, 1, 8, 1, workload.RecomputeNone).Total()
	fmt.Printf("F %.3f  B %.3f  W %.3f TFLOP\n", op.Forward/1e12, op.BackwardInput/1e12, op.BackwardWeight/1e12)
	// Output:
	// F 0.953  B 0.979  W 0.928 TFLOP
}

func ExampleIterationFLOPs() {
	m, _ := workload.LookupModel("megatron-1t")
	got := workload.IterationFLOPs(m, 3072, workload.RecomputeFull)
	want := workload.NarayananRecomputeFLOPs(3072, m.SeqLen, m.Layers, m.Hidden, m.Vocab)
	fmt.Printf("%.4e hardware FLOPs (closed form %.4e)\n", got.Hardware(), want)
	// Output:
	// 5.1391e+19 hardware FLOPs (closed form 5.1391e+19)
}

func ExampleOpTime() {
	h100, _ := hw.LookupGPU("h100-sxm")
	m, _ := workload.LookupModel("llama3-70b")
	f := workload.LayerFLOPs(m, 1, 8, 1, workload.RecomputeNone).Total().Forward
	fmt.Println("one layer's forward on one H100 at 50% of peak:", workload.OpTime(f, h100, 0.5))
	// Output:
	// one layer's forward on one H100 at 50% of peak: 4.097887ms
}

func ExampleMFU() {
	// Suppose an iteration of 1,536 sequences of Narayanan et al.'s 145.6B
	// model takes 30 s on 1,536 A100s with full recomputation.
	a100, _ := hw.LookupGPU("a100-sxm-80gb")
	m, _ := workload.LookupModel("megatron-145b")
	mfu := workload.MFU(m, 1536, 30*units.Second, 1536, a100)
	hfu := workload.HFU(m, 1536, workload.RecomputeFull, 30*units.Second, 1536, a100)
	fmt.Printf("MFU %.1f%%, HFU %.1f%%\n", 100*mfu, 100*hfu)
	// Output:
	// MFU 19.6%, HFU 26.2%
}

func ExampleModelStateBytes() {
	// ZeRO, Figure 1: Ψ = 7.5B, 64 data-parallel GPUs.
	for zero := range 4 {
		b := workload.ModelStateBytes(7.5e9, zero, 64)
		fmt.Printf("stage %d: %5.1f GB (params %.1f, grads %.1f, optimizer %.1f); traffic %.0fΨ\n",
			zero, b.Total()/1e9, b.Parameters/1e9, b.Gradients/1e9, b.OptimizerStates/1e9,
			workload.ZeROCommVolume(7.5e9, zero)/7.5e9)
	}
	// Output:
	// stage 0: 120.0 GB (params 15.0, grads 15.0, optimizer 90.0); traffic 2Ψ
	// stage 1:  31.4 GB (params 15.0, grads 15.0, optimizer 1.4); traffic 2Ψ
	// stage 2:  16.6 GB (params 15.0, grads 0.2, optimizer 1.4); traffic 2Ψ
	// stage 3:   1.9 GB (params 0.2, grads 0.2, optimizer 1.4); traffic 3Ψ
}

func ExampleActivationBytesPerLayer() {
	// GPT-3 175B, microbatch 1, tensor parallel 8 (Korthikanti et al. 2022).
	m, _ := workload.LookupModel("gpt3-175b")
	for _, c := range []struct {
		sp bool
		r  workload.Recompute
	}{{false, "none"}, {true, "none"}, {true, "selective"}, {false, "full"}} {
		mib := workload.ActivationBytesPerLayer(m, 1, 8, c.sp, c.r) / float64(units.MiB)
		fmt.Printf("sp=%-5v %-9s %5.1f MiB per layer\n", c.sp, c.r, mib)
	}
	// Output:
	// sp=false none      552.0 MiB per layer
	// sp=true  none      342.0 MiB per layer
	// sp=true  selective 102.0 MiB per layer
	// sp=false full       48.0 MiB per layer
}

func ExampleStageParams() {
	// Llama 3 70B, tensor parallel 8, pipeline 4 (20 layers a stage), ZeRO-1
	// over 16 data-parallel ranks: the model states of the first stage.
	m, _ := workload.LookupModel("llama3-70b")
	psi := workload.StageParams(m, 20, true, false, 8, 1)
	b := workload.ModelStateBytes(psi, 1, 16)
	fmt.Printf("Ψ = %.2fB: %.1f GiB of model states\n", psi/1e9, b.Total()/float64(units.GiB))
	// Output:
	// Ψ = 2.27B: 10.0 GiB of model states
}
