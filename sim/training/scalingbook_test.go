//go:build !js

package training

import (
	"math"
	"os"
	"strings"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// bookRun simulates the scenario testdata/name.
func bookRun(t *testing.T, name string) (scenario.Scenario, *timeline.Timeline, timeline.Summary) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	s, tl := textRun(t, string(data))
	return s, tl, tl.Summarize()
}

// textRun parses the scenario text and simulates it.
func textRun(t *testing.T, text string) (scenario.Scenario, *timeline.Timeline) {
	t.Helper()
	s, err := scenario.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	tl, err := Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	return s, tl
}

// TestScalingBookTokensPerChip reproduces the scaling book's bound for
// compute-bound data parallelism on TPU v5p (Austin et al. 2025, 'How to
// Scale Your Model', Part 5, Data Parallelism): 2,550 tokens per chip when
// the all-reduce runs over one torus axis, 850 over all three. The
// simulated figure is the tokens per data shard at which the step's
// data-parallel torus all-reduce would take as long as its backward pass;
// it sits a little under the book's because a ring of n chips moves
// (n−1)/n of the bytes the book's limit counts.
func TestScalingBookTokensPerChip(t *testing.T) {
	for _, c := range []struct {
		file, axes string
		book       float64
	}{
		{"scaling-book-dp-one-axis.yaml", "z", 2550},
		{"scaling-book-dp-three-axes.yaml", "xyz", 850},
	} {
		s, tl, sum := bookRun(t, c.file)
		b, ok := TorusDPBound(s, tl, sum)
		if !ok {
			t.Fatalf("%s: no data-parallel torus all-reduce on GPU 0", c.file)
		}
		if b.Axes != c.axes {
			t.Errorf("%s: the all-reduce spans axes %q; want %q", c.file, b.Axes, c.axes)
		}
		if math.Abs(b.Book/c.book-1) > 0.001 {
			t.Errorf("%s: e·C/W_ici from the presets = %.0f; the book prints %.0f", c.file, b.Book, c.book)
		}
		if math.Abs(b.Critical/c.book-1) > 0.10 {
			t.Errorf("%s: compute-bound above %.0f tokens per chip; the book: %.0f (want within 10%%)", c.file, b.Critical, c.book)
		}
		t.Logf("%s: %.0f tokens per chip (book %.0f, %+.1f%%): all-reduce %v, backward %v a step at %.0f tokens per chip",
			c.file, b.Critical, c.book, 100*(b.Critical/c.book-1), b.Comm, b.Backward, b.Tokens)
	}
}

// TestScalingBookLLaMA70B reproduces the scaling book's training budget
// for LLaMA 3-70B on a full TPU v5p pod (Austin et al. 2025, Part 6
// 'Training LLaMA 3 on TPUs'): 15T tokens on 8,960 chips at 40% MFU take
// 3.8e6 s, 'about 44 days'.
func TestScalingBookLLaMA70B(t *testing.T) {
	s, _, sum := bookRun(t, "scaling-book-llama3-70b-v5p.yaml")
	days, book, ok := TrainingDays(s, sum)
	if !ok {
		t.Fatal("no training days")
	}
	const want = 3.8e6 / 86400 // the book's 3.8e6 s: 44 days
	if math.Abs(days/want-1) > 0.10 {
		t.Errorf("%.1f days to train; the book: %.1f (want within 10%%)", days, want)
	}
	if math.Abs(book/want-1) > 0.02 {
		t.Errorf("6·N·T/(chips·e·C) = %.1f days; the book's 3.8e6 s is %.1f", book, want)
	}
	t.Logf("%.1f days (book %.1f, %+.1f%%; its formula with our parameter count %.1f); MFU %.1f%%", days, want, 100*(days/want-1), book, 100*sum.MFU)
}

// TestTrainingTorusCollectives: a training run on a v5p cube with a named
// mesh runs its data-parallel sums and FSDP gathers as torus collectives
// over the data axes (y and z of a 4x4x4 cube: 16 chips, both rings), and
// in detailed fidelity each takes its closed form (collective.TorusTime)
// within 0.5%, each group on links of its own; over two slices the data
// axis's all-reduce is the hierarchical one (collective.TorusSlicesTime:
// each torus, the DCN ring, each torus), and an fsdp axis's
// reduce-scatters (torus, then DCN) and gathers (DCN, then torus) are too.
func TestTrainingTorusCollectives(t *testing.T) {
	const head = `strategy: training
fidelity: detailed
model: {layers: 2, hidden: 512, heads: 8, ffn_hidden: 2048, vocab: 1024, seq_len: 512}
cluster: {gpu: tpu-v5p, topology: 4x4x4}
parallel: {microbatches: 1, micro_batch_size: 1, mesh: `
	g := collective.Grid{Dims: [3]int{1, 4, 4}, Wrap: [3]bool{false, true, true}}
	for _, mesh := range []string{"{data: 16, model: 4}}", "{fsdp: 16, model: 4}}", "{data: 32, model: 4}}\ncluster: {gpu: tpu-v5p, topology: 4x4x4, slices: 2}",
		"{data: 2, fsdp: 16, model: 4}}\ncluster: {gpu: tpu-v5p, topology: 4x4x4, slices: 2}",
		"{data: 32, model: 4}, zero: 1}\ncluster: {gpu: tpu-v5p, topology: 4x4x4, slices: 2}"} {
		text := head + mesh
		if strings.Contains(mesh, "slices") { // the cluster line given twice: keep the second
			text = strings.Replace(text, "cluster: {gpu: tpu-v5p, topology: 4x4x4}\n", "", 1)
		}
		s, tl := textRun(t, text)
		seen, worst := map[string]int{}, 0.0
		for _, c := range tl.Collectives {
			if c.Purpose != "dp" && c.Purpose != "zero" {
				continue
			}
			seen[string(c.Name)]++
			if c.Algorithm != "torus" || (c.Ranks != 16 && c.Ranks != 32) {
				t.Fatalf("%s: %s %s over %d ranks; want torus over 16 (32 over two slices)", mesh, c.Purpose, c.Algorithm, c.Ranks)
			}
			want := collective.TorusTime(string(c.Name), g, c.Bytes, 1000, 90*units.GBps)
			if c.Ranks == 32 { // the same box in both slices: torus, DCN ring, torus
				topology, err := Topology(s)
				if err != nil {
					t.Fatal(err)
				}
				da, dbw, err := nccltest.DCNShare(topology)
				if err != nil {
					t.Fatal(err)
				}
				want = collective.TorusSlicesTime(string(c.Name), g, 2, c.Bytes, 1000, 90*units.GBps, da, dbw)
			}
			got := (c.End - c.Start).Seconds()
			worst = max(worst, math.Abs(got/want-1))
			if math.Abs(got/want-1) > 0.005 {
				t.Errorf("%s: %s of %v over %v: %.4g s; closed form %.4g s", mesh, c.Name, c.Bytes, c.GPUs, got, want)
			}
		}
		if len(seen) == 0 {
			t.Fatalf("%s: no data-parallel collective", mesh)
		}
		t.Logf("%s: %v on the torus, worst %.3f%% from the closed form", mesh, seen, 100*worst)
	}
}
