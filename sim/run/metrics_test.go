package run

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/golden"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// The summary's metrics keep their definitions on every example: the
// kinds of exposed communication add up to the headline, which is no
// longer than the iteration, and a run without a pipeline has no bubble.
func TestMetricsAgreeOnEveryExample(t *testing.T) {
	sources := map[string]string{
		// The case: ZeRO-3 on one pipeline stage, whose gather
		// waits were once counted as bubble as well as exposed.
		"zero3-pp1": "model: {preset: llama3-8b, layers: 8}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\n" +
			"parallel: {dp: 16, zero: 3, microbatches: 2}\n",
		"zero3-pp2": "model: {preset: llama3-8b, layers: 8}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\n" +
			"parallel: {dp: 4, tp: 2, pp: 2, zero: 3, microbatches: 4}\n",
	}
	for _, file := range golden.Files(t, "../scenario/testdata/*.yaml") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sources[strings.TrimSuffix(filepath.Base(file), ".yaml")] = string(data)
	}
	for name, src := range sources {
		s, err := scenario.Parse([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tl, err := Simulate(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sum := tl.Summarize()
		if sum.ExposedCommunication < 0 || sum.ExposedCommunication > sum.Iteration {
			t.Errorf("%s: exposed communication %v, want 0..%v (the iteration)", name, sum.ExposedCommunication, sum.Iteration)
		}
		// Per GPU, compute and waiting on communication never share an instant.
		if sum.Compute+sum.ExposedCommunication > sum.Iteration+1 {
			t.Errorf("%s: compute %v + exposed %v > iteration %v: an instant counted twice", name, sum.Compute, sum.ExposedCommunication, sum.Iteration)
		}
		if len(sum.ExposedBy) > 0 {
			var total float64
			for _, v := range sum.ExposedBy {
				total += v
			}
			if got := units.Round(total); math.Abs(float64(got-sum.ExposedCommunication)) > float64(len(sum.ExposedBy)) {
				t.Errorf("%s: exposed communication by kind %v sums to %v, the headline says %v", name, sum.ExposedBy, got, sum.ExposedCommunication)
			}
		}
		if tl.Training != nil && s.Parallel.PP == 1 && sum.BubbleFraction != 0 {
			t.Errorf("%s: pp 1 reports a pipeline bubble of %.1f%%, want 0", name, 100*sum.BubbleFraction)
		}
	}
}

// One GPU runs every strategy that allows it, with nothing to exchange:
// no message, no collective, a stream that never idles, and for data
// parallelism the closed form T = T_F + T_B (the all-reduce over one rank
// is free).
func TestSingleGPURuns(t *testing.T) {
	for _, tc := range []struct {
		file string
		want units.Time // the iteration's closed form, 0 to skip
	}{
		{"single-gpu-training.yaml", 0},
		{"single-gpu-data-parallel.yaml", 2*units.Millisecond + 4*units.Millisecond},
		{"single-gpu-inference.yaml", 0},
	} {
		data, err := os.ReadFile(filepath.Join("../scenario/testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		tl, err := Simulate(s)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		sum := tl.Summarize()
		if len(tl.GPUs) != 1 || tl.Transfers.Len() != 0 || len(tl.Collectives) != 0 {
			t.Errorf("%s: %d GPUs, %d transfers, %d collectives; want 1, 0, 0", tc.file, len(tl.GPUs), tl.Transfers.Len(), len(tl.Collectives))
		}
		if sum.ExposedCommunication != 0 || sum.BubbleFraction != 0 {
			t.Errorf("%s: exposed %v, bubble %g; want 0 and 0", tc.file, sum.ExposedCommunication, sum.BubbleFraction)
		}
		var spans units.Time
		for _, sp := range tl.Spans {
			if sp.GPU == 0 {
				spans += sp.End - sp.Start
			}
		}
		if s.Strategy != "inference" && spans != tl.End {
			t.Errorf("%s: spans add up to %v, the run ends at %v: want no idle time", tc.file, spans, tl.End)
		}
		if tc.want > 0 && tl.End != tc.want {
			t.Errorf("%s: iteration %v, want %v", tc.file, tl.End, tc.want)
		}
	}
}

// Data parallelism without jitter, by hand: every GPU computes T_F + T_B,
// then waits through the ring all-reduce with a message in flight all the
// time, so the exposed communication is the ring's α–β time,
// 2(n−1)α + 2(n−1)/n · S/B, on every GPU and in the mean.
func TestExposedIsTheRingOnDataParallel(t *testing.T) {
	const alpha, bw, size = 5e-6, 100e9, 64 << 20
	for _, n := range []int{2, 4, 8} {
		s := scenario.Default()
		s.Strategy, s.GPUs = "data-parallel", n
		s.Link.Bandwidth, s.Link.Latency = bw, units.Round(alpha)
		s.Compute.Forward, s.Compute.Backward, s.Compute.Jitter = 2*units.Millisecond, 4*units.Millisecond, 0
		s.Collective.Algorithm, s.Collective.Size = scenario.AlgorithmRing, size
		tl, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		sum := tl.Summarize()
		nf := float64(n)
		want := units.Round(2*(nf-1)*alpha + 2*(nf-1)/nf*size/bw)
		if d := sum.ExposedCommunication - want; d < -1 || d > 1 {
			t.Errorf("n = %d: exposed communication %v, want 2(n−1)α + 2(n−1)/n·S/B = %v", n, sum.ExposedCommunication, want)
		}
		if got := sum.Iteration - 6*units.Millisecond; got != sum.ExposedCommunication {
			t.Errorf("n = %d: iteration − (T_F+T_B) = %v, exposed %v: want them equal", n, got, sum.ExposedCommunication)
		}
	}
}
