package inference

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Llama 3 8B's shapes as Meta publishes them, written out here so the
// tests do not lean on package workload's arithmetic.
const (
	llamaLayers  = 32
	llamaHidden  = 4096
	llamaKVHeads = 8
	llamaHeadDim = 128
	llamaFFN     = 14336
	llamaVocab   = 128256
	// One layer: q and o (h·h each), k and v (h · kv_heads · head_dim
	// each), the gated MLP (3 · h · ffn) and two RMSNorm weights (h).
	llamaLayerParams = 2*llamaHidden*llamaHidden + 2*llamaHidden*llamaKVHeads*llamaHeadDim + 3*llamaHidden*llamaFFN + 2*llamaHidden
	h100HBMBandwidth = 3350e9 // bytes/s, H100 SXM datasheet
)

// serving is a small serving scenario of Llama 3 8B on H100s.
func serving(dp, pp, requests, output int, edit func(*Settings)) scenario.Scenario {
	s := scenario.Default()
	s.Strategy = Name
	s.GPUs = dp * pp
	s.Cluster.GPU = "h100-sxm"
	s.Model.Preset = "llama3-8b"
	s.Parallel.DP, s.Parallel.PP, s.Parallel.TP = dp, pp, 1
	in := SettingsOf(&s)
	in.Requests, in.Prompt, in.Output = requests, 128, output
	if edit != nil {
		edit(&in)
	}
	SetSettings(&s, in)
	return s
}

func simulateOK(t *testing.T, s scenario.Scenario) *timeline.Timeline {
	t.Helper()
	return strategytest.MustRun(t, Simulate, s)
}

// TestKVGrowsLinearly checks that every decode step adds exactly
// requests × (2 · layers · kv_heads · head_dim · 2 bytes) of cache on each
// stage's GPU, and that the cache at the end holds prompt + output − 1
// tokens per request (the last sampled token is never fed back).
func TestKVGrowsLinearly(t *testing.T) {
	const requests, output = 3, 6
	s := serving(1, 2, requests, output, func(in *Settings) { in.Microbatches = 1 })
	tl := simulateOK(t, s)
	perToken := units.Bytes(2 * (llamaLayers / 2) * llamaKVHeads * llamaHeadDim * 2) // 16 layers per stage
	for _, m := range tl.Memory {
		if got := tl.Inference.KVBytesPerToken[m.GPU]; got != perToken {
			t.Errorf("GPU %d: %v of cache per token, want %v", m.GPU, got, perToken)
		}
		if len(m.KVCache) != output {
			t.Fatalf("GPU %d: %d cache samples, want %d (a prefill and %d decode steps)", m.GPU, len(m.KVCache), output, output-1)
		}
		if got, want := m.KVCache[0].Bytes, units.Bytes(requests*SettingsOf(&s).Prompt)*perToken; got != want {
			t.Errorf("GPU %d: cache after the prefill %v, want %v", m.GPU, got, want)
		}
		for i := 1; i < len(m.KVCache); i++ {
			if got, want := m.KVCache[i].Bytes-m.KVCache[i-1].Bytes, requests*perToken; got != want {
				t.Errorf("GPU %d step %d: cache grew by %v, want the slope %v", m.GPU, i, got, want)
			}
		}
		if got, want := m.KVAt(tl.End), units.Bytes(requests*(SettingsOf(&s).Prompt+output-1))*perToken; got != want {
			t.Errorf("GPU %d: cache at the end %v, want %v", m.GPU, got, want)
		}
	}
}

// TestDecodeStepMatchesBandwidth checks, under the training.efficiency
// override (the fixed-efficiency roofline), a decode span of a middle
// stage against the roofline's memory term, computed here from the
// published shapes: (8 layers of weights + requests · context · KV per
// token) / HBM bandwidth, and that the compute term is smaller.
func TestDecodeStepMatchesBandwidth(t *testing.T) {
	const requests, output = 2, 4
	s := serving(1, 4, requests, output, func(in *Settings) { in.Microbatches = 1 })
	s.Training.Efficiency = 0.5
	tl := simulateOK(t, s)
	layers := llamaLayers / 4
	perToken := 2 * layers * llamaKVHeads * llamaHeadDim * 2
	step := 0
	for _, sp := range tl.Spans {
		if sp.GPU != 1 || sp.Kind != timeline.Decode {
			continue
		}
		step++
		context := SettingsOf(&s).Prompt + step
		bytes := float64(layers*llamaLayerParams*2 + requests*context*perToken)
		want := bytes / h100HBMBandwidth
		flops := 2*float64(layers*llamaLayerParams*requests) + 4*float64(layers*requests*context*llamaHidden)
		if compute := flops / (989.4e12 * 0.5); compute >= want {
			t.Fatalf("step %d: compute %v s is not below memory %v s; the test wants a memory-bound step", step, compute, want)
		}
		if got := (sp.End - sp.Start).Seconds(); math.Abs(got-want) > 1e-9 {
			t.Errorf("decode step %d on stage 1: %.9f s, want bytes/bandwidth = %.0f B / 3.35 TB/s = %.9f s", step, got, bytes, want)
		}
	}
	if step != output-1 {
		t.Errorf("%d decode spans on GPU 1, want %d", step, output-1)
	}
}

// TestKVOverflowIsOOM fills the cache past the HBM: the GPU is flagged
// out of memory, in the record and in the summary.
func TestKVOverflowIsOOM(t *testing.T) {
	// 72 requests of 8 k tokens on one stage of the whole model: 72 ·
	// 8193 · 128 KiB = 72 GiB of cache beside 15 GiB of weights.
	s := serving(2, 1, 72, 2, func(in *Settings) { in.Prompt = 8192 })
	tl := simulateOK(t, s)
	sum := tl.Summarize()
	for i, m := range tl.Memory {
		if !m.OOM() || !sum.GPUs[i].OOM {
			t.Errorf("GPU %d: peak %v of %v HBM, OOM %v (summary %v); want it flagged", i, m.Peak, m.Capacity, m.OOM(), sum.GPUs[i].OOM)
		}
		if cap := tl.Inference.KVCapacity[i]; cap >= 72*(8192+1) {
			t.Errorf("GPU %d: capacity %d tokens, yet it overflowed", i, cap)
		}
	}
	fits := simulateOK(t, serving(2, 1, 8, 2, func(in *Settings) { in.Prompt = 8192 }))
	if m := fits.Memory[0]; m.OOM() {
		t.Errorf("8 requests of 8 k tokens: peak %v flagged OOM on %v", m.Peak, m.Capacity)
	}
}

// TestSharedWeightsFreeMemory checks SiDP's saving on 4 GPUs with
// fetched weights: each GPU keeps its 8 layers and a 2-layer buffer instead
// of 32 layers, so it frees 22 layers of weights, 22 · 218,112,000 · 2 B
// = 9,596,928,000 B (8.94 GiB), and the cache gains that many bytes of
// room. With activations shipped instead there is no buffer: 24 layers,
// 10,469,376,000 B (9.75 GiB).
func TestSharedWeightsFreeMemory(t *testing.T) {
	replicated := simulateOK(t, serving(4, 1, 4, 3, nil))
	for _, tc := range []struct {
		mode  string
		freed units.Bytes
	}{{SharedFetch, 22 * llamaLayerParams * 2}, {SharedShip, 24 * llamaLayerParams * 2}} {
		shared := simulateOK(t, serving(4, 1, 4, 3, func(in *Settings) { in.SharedWeights = tc.mode }))
		for g := range 4 {
			a, b := replicated.Memory[g], shared.Memory[g]
			if got := a.Static() - b.Static(); got != tc.freed {
				t.Errorf("%s GPU %d: frees %v, want %v", tc.mode, g, got, tc.freed)
			}
			// The cache gains the freed bytes, less any change in the
			// largest workspace (a layer's, the same in both runs).
			per := units.Bytes(2 * llamaLayers * llamaKVHeads * llamaHeadDim * 2)
			gained := shared.Inference.KVCapacity[g] - replicated.Inference.KVCapacity[g]
			ws := peakActivations(b) - peakActivations(a)
			if d := int64((tc.freed-ws)/per) - gained; d < -1 || d > 1 {
				t.Errorf("%s GPU %d: cache room grew by %d tokens, want about %v / %v = %d", tc.mode, g, gained, tc.freed, per, tc.freed/per)
			}
		}
	}
}

func peakActivations(m timeline.Memory) units.Bytes {
	var p units.Bytes
	for _, x := range m.Activations {
		p = max(p, x.Bytes)
	}
	return p
}

// TestBubblesPartitionIdleTime checks that on every GPU the bubbles of
// all kinds and its model work (prefill, decode, sample, tensor-parallel
// communication) tile the run exactly, host spans counted as bubbles.
func TestBubblesPartitionIdleTime(t *testing.T) {
	for name, s := range map[string]scenario.Scenario{
		"vllm-like": serving(1, 4, 8, 5, func(in *Settings) {
			in.HostTime, in.SendOverhead = 200*units.Microsecond, 100*units.Microsecond
		}),
		"sipipe-like": serving(1, 4, 8, 5, func(in *Settings) {
			in.Sampling, in.AsyncHost, in.HostTime = SampleCPU, true, 200*units.Microsecond
		}),
		"fetch": serving(4, 1, 4, 3, func(in *Settings) { in.SharedWeights = SharedFetch }),
		"ship":  serving(4, 1, 4, 3, func(in *Settings) { in.SharedWeights = SharedShip }),
	} {
		tl := simulateOK(t, s)
		busy := make([]units.Time, len(tl.GPUs))
		idle := make([]units.Time, len(tl.GPUs))
		for _, sp := range tl.Spans {
			if sp.Kind != timeline.Host {
				busy[sp.GPU] += sp.End - sp.Start
			}
		}
		for _, b := range tl.Inference.Bubbles {
			idle[b.GPU] += b.End - b.Start
		}
		for g, gpu := range tl.GPUs {
			if gpu.Role != "" {
				continue
			}
			if busy[g]+idle[g] != tl.End {
				t.Errorf("%s GPU %d: work %v + bubbles %v = %v, want the run's %v", name, g, busy[g], idle[g], busy[g]+idle[g], tl.End)
			}
		}
	}
}

// TestSiPipeShrinksBubbles compares vLLM-like serving with SiPipe's three
// changes: sampling on the CPU removes the last stage's extra work
// (imbalance), overlapped host work removes the GPUs' waits for their CPU
// (intra-stage), and a smaller send overhead shortens the inter-stage
// waits. Each kind must shrink, and throughput rise.
func TestSiPipeShrinksBubbles(t *testing.T) {
	base := serving(1, 4, 8, 8, func(in *Settings) {
		in.HostTime, in.SendOverhead = 200*units.Microsecond, 100*units.Microsecond
	})
	si := base
	in := SettingsOf(&si)
	in.Sampling, in.AsyncHost, in.SendOverhead = SampleCPU, true, 10*units.Microsecond
	SetSettings(&si, in)
	a, b := simulateOK(t, base).Summarize().Inference, simulateOK(t, si).Summarize().Inference
	for _, k := range []string{timeline.BubbleImbalance, timeline.BubbleIntraStage, timeline.BubbleInterStage} {
		if b.Bubbles[k] >= a.Bubbles[k] {
			t.Errorf("%s bubbles: %v with SiPipe's changes, %v without; want fewer", k, b.Bubbles[k], a.Bubbles[k])
		}
	}
	if b.TokensPerSecond <= a.TokensPerSecond || b.TPOT >= a.TPOT {
		t.Errorf("SiPipe-like %.0f tokens/s, TPOT %v; vLLM-like %.0f tokens/s, TPOT %v", b.TokensPerSecond, b.TPOT, a.TokensPerSecond, a.TPOT)
	}
}

// TestInferenceDeterministic runs a scenario twice: same bytes.
func TestInferenceDeterministic(t *testing.T) {
	s := serving(1, 2, 4, 4, func(in *Settings) { in.Sampling = SampleCPU })
	a, _ := json.Marshal(simulateOK(t, s))
	if b, _ := json.Marshal(simulateOK(t, s)); !bytes.Equal(a, b) {
		t.Error("two runs of one scenario differ")
	}
}

func TestInferenceSummaryText(t *testing.T) {
	tl := simulateOK(t, serving(1, 2, 4, 4, nil))
	var b strings.Builder
	tl.Summarize().WriteText(&b)
	for _, want := range []string{"time to first token", "time per output token", "KV cache", "imbalance", "intra-stage", "inter-stage"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

func BenchmarkInferencePipeline(b *testing.B) {
	s := serving(1, 4, 16, 32, func(in *Settings) { in.HostTime = 200 * units.Microsecond })
	for b.Loop() {
		if _, err := strategytest.Run(Simulate, s); err != nil { // validated, as run.Simulate does
			b.Fatal(err)
		}
	}
}
