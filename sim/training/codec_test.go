package training

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/compression"
	"paraplay/sim/gemm"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// opSpan is the duration of the first span of kind on model stage k for
// microbatch 0.
func opSpan(tl *timeline.Timeline, kind timeline.Kind, k int) units.Time {
	for _, sp := range tl.Spans {
		if sp.Kind == kind && sp.Stage == k && sp.Microbatch == 0 {
			return sp.End - sp.Start
		}
	}
	return -1
}

func parseScenario(t *testing.T, yaml string) scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Compressed activations cost their encoder's time on the ops that send
// them: a layer's two tensor-parallel all-reduces a pass, t_c per MiB of
// their b·s·h bf16 elements each, and the pipeline message a forward sends
// on (a backward sends back), t_c per MiB of its b·s·h/tp elements.
func TestActivationCodecCharged(t *testing.T) {
	base := "model: {preset: llama3-8b, layers: 4}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 2}\nparallel: {dp: 1, tp: 2, pp: 2, microbatches: 4}\nfidelity: analytic\n"
	plain := mustSimulate(t, parseScenario(t, base))
	coded := mustSimulate(t, parseScenario(t, base+"compression: {activations: 0.5, time_per_mib: 10us}\n"))
	tc := 10 * units.Microsecond
	elems := 8192 * 4096.0                                // b·s·h of one microbatch
	layer := compression.Time(tc, units.Bytes(2*elems*2)) // two all-reduces a pass, 2 B an element
	msg := compression.Time(tc, units.Bytes(elems*2/2))   // one tp rank's half of the boundary
	for _, c := range []struct {
		kind timeline.Kind
		k    int
		want units.Time
	}{
		{timeline.Forward, 0, 2*layer + msg}, // stage 0 sends its activations on
		{timeline.Forward, 1, 2 * layer},     // the last stage sends nothing forward
		{timeline.Backward, 0, 2 * layer},    // the first stage sends nothing back
		{timeline.Backward, 1, 2*layer + msg},
	} {
		if got := opSpan(coded, c.kind, c.k) - opSpan(plain, c.kind, c.k); got != c.want {
			t.Errorf("%s on stage %d: the codec adds %v, want %v (2 layers × %v + the message's %v)", c.kind, c.k, got, c.want, layer, msg)
		}
	}
	// On an ideal network nothing is sent, so nothing is encoded.
	ideal := strings.Replace(base, "nodes: 2, gpus_per_node: 2}", "nodes: 2, gpus_per_node: 2, network: ideal}", 1)
	a := mustSimulate(t, parseScenario(t, ideal))
	b := mustSimulate(t, parseScenario(t, ideal+"compression: {activations: 0.5, time_per_mib: 10us}\n"))
	if a.End != b.End {
		t.Errorf("ideal network: %v with compression, %v without; want equal", b.End, a.End)
	}
}

// Protocol Models' subspace of rank k: each pipeline message carries k/h
// of the boundary's bytes, and the sender's projection (rows × h by h × k)
// and the receiver's rebuilding (rows × k by k × h) are GEMMs of
// 2·rows·h·k FLOPs each, priced by package gemm.
func TestSubspaceRank(t *testing.T) {
	base := "model: {preset: llama3-8b, layers: 4}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 1}\nparallel: {pp: 2, microbatches: 4}\n"
	plain := mustSimulate(t, parseScenario(t, base))
	ranked := mustSimulate(t, parseScenario(t, base+"compression: {rank: 64}\n"))
	pp := func(tl *timeline.Timeline) (b units.Bytes) {
		for i := range tl.Transfers.Len() {
			if x := tl.Transfers.At(i); x.Phase == "pp" {
				return x.Bytes
			}
		}
		return 0
	}
	if got, want := pp(ranked), units.Bytes(8192*64*2); got != want || pp(plain) != 8192*4096*2 {
		t.Errorf("pipeline message %v (plain %v), want k/h of b·s·h·2 B = %v", got, pp(plain), want)
	}
	h100, _ := hw.LookupGPU("h100-sxm")
	proj, _ := gemm.Time(h100, gemm.Shape{Batch: 1, M: 8192, N: 64, K: 4096}, gemm.BF16)
	back, _ := gemm.Time(h100, gemm.Shape{Batch: 1, M: 8192, N: 4096, K: 64}, gemm.BF16)
	if f := compression.ProjectionFLOPs(8192, 4096, 64); f != 2*8192*4096*64 {
		t.Errorf("projection FLOPs %v", f)
	}
	for _, c := range []struct {
		kind timeline.Kind
		k    int
		want float64
	}{{timeline.Forward, 0, proj}, {timeline.Forward, 1, back}, {timeline.Backward, 1, proj}, {timeline.Backward, 0, back}} {
		got := opSpan(ranked, c.kind, c.k) - opSpan(plain, c.kind, c.k)
		if math.Abs(got.Seconds()-c.want) > 1e-9 {
			t.Errorf("%s on stage %d: the projection adds %v, want the GEMM's %.3g s", c.kind, c.k, got, c.want)
		}
	}
	if ranked.End >= plain.End {
		t.Errorf("rank 64 of 4096 did not shorten the iteration: %v vs %v", ranked.End, plain.End)
	}
}

// compression.parameters shrinks ZeRO's parameter gathers (after the step
// for ZeRO-1/2, before each pass for ZeRO-3) to its fraction, and each rank
// encodes first; the gradients' reduce-scatters keep compression.ratio.
func TestParameterGathersCompressed(t *testing.T) {
	for _, zero := range []string{"1", "3"} {
		base := "model: {preset: llama3-8b, layers: 4}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 2}\nparallel: {dp: 4, microbatches: 2, zero: " + zero + "}\n"
		plain := mustSimulate(t, parseScenario(t, base))
		half := mustSimulate(t, parseScenario(t, base+"compression: {parameters: 0.5, time_per_mib: 10us}\n"))
		bytes := func(tl *timeline.Timeline, purpose string) (b units.Bytes, n int) {
			for _, c := range tl.Collectives {
				if c.Purpose == purpose {
					b += c.Bytes
					n++
				}
			}
			return b, n
		}
		z0, n0 := bytes(plain, "zero")
		z1, n1 := bytes(half, "zero")
		if n0 == 0 || n1 != n0 || math.Abs(float64(z1)-float64(z0)/2) > float64(n1) {
			t.Errorf("ZeRO-%s: gathers %v in %d → %v in %d; want half the bytes", zero, z0, n0, z1, n1)
		}
		if d0, _ := bytes(plain, "dp"); d0 == 0 {
			t.Errorf("ZeRO-%s: no gradient collectives", zero)
		} else if d1, _ := bytes(half, "dp"); d1 != d0 {
			t.Errorf("ZeRO-%s: gradient bytes %v → %v; want them untouched", zero, d0, d1)
		}
		var spans int
		for _, sp := range half.Spans {
			if sp.Kind == timeline.Compress {
				spans++
			}
		}
		if spans == 0 {
			t.Errorf("ZeRO-%s: no encoding spans before the gathers", zero)
		}
	}
}

// Bad compression settings name their field and the allowed range.
func TestCompressionErrors(t *testing.T) {
	train := "model: {preset: llama3-8b, layers: 4}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 2}\nparallel: {pp: 2}\n"
	for _, c := range []struct{ yaml, want string }{
		{train + "compression: {rank: 5000}\n", "compression.rank: is 5000; allowed 1..4096"},
		{train + "compression: {rank: -1}\n", "compression.rank: is -1; allowed 0..131072"},
		{train + "compression: {rank: 8, activations: 0.5}\n", "leave compression.activations at 1"},
		{train + "compression: {parameters: 0}\n", "compression.parameters: is 0; allowed 0 < parameters ≤ 1"},
		{train + "compression: {method: slim-dp}\n", "compression.method: slim-dp applies to"},
		{train + "compression: {method: topk}\n", `compression.method: "topk" is not known; allowed: scaled, slim-dp`},
		{"model: {synthetic: {forward: 1ms}}\nparallel: {pp: 2}\ngpus: 2\ncompression: {rank: 4}\n", "model.synthetic has no hidden size"},
	} {
		_, err := scenario.Parse([]byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.yaml, err, c.want)
		}
	}
}
