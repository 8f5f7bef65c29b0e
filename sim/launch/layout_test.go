package launch

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/training"
)

// unevenPlans are plans of every schedule Megatron-LM runs and every ZeRO
// stage whose layers do not split evenly: first_last_fewer 1 and 2, a
// hand-made layers_per_stage, and the equal split of 80 layers over 32
// model stages (which leaves a remainder).
func unevenPlans(t *testing.T) []scenario.Scenario {
	var out []scenario.Scenario
	for _, sc := range []struct {
		name string
		v    int
	}{{"1f1b", 1}, {"interleaved", 2}, {"interleaved", 4}, {"interleaved", 8}} {
		for zero := 0; zero <= 3; zero++ {
			for split := range 3 {
				p := scenario.Default().Parallel
				pp := 8
				if sc.v == 8 {
					pp = 4 // 80 layers on 32 stages: 2 or 3 each
				}
				p.DP, p.TP, p.PP, p.Schedule, p.VirtualStages, p.Microbatches, p.MicroBatchSize = 16/pp, 4, pp, sc.name, sc.v, 16, 1
				p.ZeRO, p.SequenceParallel = zero, true
				switch split {
				case 0, 1:
					p.FirstLastFewer = split + 1
				case 2:
					counts, err := training.StageLayers(p, 80, pp*sc.v)
					if err != nil {
						t.Fatal(err)
					}
					counts[1]++
					counts[len(counts)-2]--
					p.LayersPerStage = counts
				}
				out = append(out, planScenario(p))
			}
		}
	}
	return out
}

// TestMegatronUnevenRoundTrip: a plan whose layers split unevenly is
// written with the flags that give Megatron-LM the same split and read
// back to the same plan; the equal split that Megatron-LM would refuse
// (80 layers on 32 stages) is written as a layout too.
func TestMegatronUnevenRoundTrip(t *testing.T) {
	for i, s := range unevenPlans(t) {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			line := megatronRoundTrip(t, s)
			if !strings.Contains(line, "--pipeline-model-parallel-layout") && !strings.Contains(line, "--decoder-first-pipeline-num-layers") {
				t.Errorf("an uneven split written without a layout flag:\n%s", line)
			}
		})
	}
}

// TestLayoutStrings: the layouts written for known splits, and
// Megatron-LM's own example read as Megatron-LM reads it.
func TestLayoutStrings(t *testing.T) {
	for _, c := range []struct {
		counts []int
		want   string
	}{
		{[]int{1, 2, 2, 2, 1}, "Et|(t*2|)*3,tL"},
		{[]int{7, 8, 8, 7}, "Et*7|(t*8|)*2,t*7L"},
		{[]int{0, 3, 4, 0}, "E|t*3|t*4|L"},
		{[]int{5}, "Et*5L"},
	} {
		got := layoutString(c.counts)
		if got != c.want {
			t.Errorf("%v: layout %q, want %q", c.counts, got, c.want)
		}
		back, err := parseLayout(got)
		if err != nil || !slices.Equal(back, c.counts) {
			t.Errorf("%q reads as %v (%v), want %v", got, back, err, c.counts)
		}
	}
	// Megatron-LM's docstring example, with its MTP stage made a layer.
	if got, err := parseLayout("Ettt|(tt|)*29,t|L"); err != nil || len(got) != 32 || got[0] != 3 || got[1] != 2 || got[30] != 1 || got[31] != 0 {
		t.Errorf("Megatron-LM's example reads as %v (%v)", got, err)
	}
	for _, bad := range []string{"tE|tL", "Et|t", "Et|tmL", "Et|(t|*2|tL", "Et|(tt|)|tL", "Et|tx|L", "(t|)*99999999,L"} {
		if _, err := parseLayout(bad); err == nil {
			t.Errorf("%q read without an error", bad)
		}
	}
}

// TestMegatronBest405B is the planner's best Llama 3 405B plan (the
// planner article): 126 layers on pp 8 × v 8 with the first and last
// chunks one layer lighter, which Megatron-LM's first/last flags (per
// rank) cannot say and its layout can.
func TestMegatronBest405B(t *testing.T) {
	p := scenario.Parallel{DP: 32, TP: 8, PP: 8, CP: 8, EP: 1, Schedule: "interleaved", VirtualStages: 8, Microbatches: 16,
		MicroBatchSize: 4, ZeRO: 2, FirstLastFewer: 1, TPCommOverlap: true, SequenceParallel: true, Recompute: "none", Partition: "equal"}
	s := planScenario(p)
	s.Model = scenario.Model{Preset: "llama3-405b", SeqLen: 8192}
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 2048, GPUsPerNode: 8}
	line := megatronRoundTrip(t, s)
	if want := "--pipeline-model-parallel-layout 'Et|(t*2|)*62,tL'"; !strings.Contains(line, want) {
		t.Errorf("missing %q:\n%s", want, line)
	}
}

// TestFromMegatronFirstLast reads Megatron-LM's per-rank first/last
// counts: on 1F1B they are the stages' counts; with interleaving each
// rank's count is split evenly over its chunks.
func TestFromMegatronFirstLast(t *testing.T) {
	base := importBase(planScenario(scenario.Default().Parallel))
	line := "torchrun --nnodes 8 --nproc-per-node 8 pretrain_gpt.py --tensor-model-parallel-size 8 --pipeline-model-parallel-size 4 --bf16 " +
		"--num-layers 80 --hidden-size 8192 --ffn-hidden-size 28672 --num-attention-heads 64 --group-query-attention " +
		"--num-query-groups 8 --seq-length 8192 --swiglu --normalization RMSNorm --position-embedding-type rope " +
		"--untie-embeddings-and-output-weights --disable-bias-linear --micro-batch-size 1 --global-batch-size 64 --vocab-size 128256"
	for _, c := range []struct{ extra, want string }{
		{" --decoder-first-pipeline-num-layers 19 --decoder-last-pipeline-num-layers 19", "first_last_fewer=1"},
		{" --decoder-first-pipeline-num-layers 17", "layers_per_stage=17%2C21%2A3"},
		{" --decoder-first-pipeline-num-layers 18 --decoder-last-pipeline-num-layers 18 --num-virtual-stages-per-pipeline-rank 2", "layers_per_stage=9%2C11%2A2%2C9%2A2%2C11%2A2%2C9"},
	} {
		s, err := FromMegatron(line+c.extra, base)
		if err != nil {
			t.Errorf("%s: %v", c.extra, err)
			continue
		}
		if q := s.Query().Encode(); !strings.Contains(q, c.want) {
			t.Errorf("%s: %s; want %s", c.extra, q, c.want)
		}
	}
	for _, c := range []struct{ extra, want string }{
		{" --decoder-first-pipeline-num-layers 16", "--decoder-first-pipeline-num-layers: leaves 64 layers"},
		{" --decoder-first-pipeline-num-layers 19 --decoder-last-pipeline-num-layers 19 --num-virtual-stages-per-pipeline-rank 2", "do not split evenly"},
		{" --pipeline-model-parallel-layout Et*40|t*40L --decoder-first-pipeline-num-layers 40", "Megatron-LM takes one of them"},
		{" --pipeline-model-parallel-layout Et*39|t*40L|t|t", "ParaPlay keeps the embedding"},
		{" --pipeline-model-parallel-layout t*40|t*39|t|tL", "the first stage must open"},
		{" --pipeline-model-parallel-layout Et*20|t*20|t*20|t*19L", "--num-layers: 80, but the split gives the stages 79"},
		{" --pipeline-model-parallel-layout Et*40|t*40L", "2 stages are not a multiple of pp 4"},
		{" --pipeline-model-parallel-size 3", "not a multiple of pp 3"},
	} {
		l := line + c.extra
		if strings.Contains(c.extra, "size 3") {
			l = strings.Replace(line, "--nnodes 8", "--nnodes 3", 1) + c.extra
		}
		if _, err := FromMegatron(l, base); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want one containing %q", c.extra, err, c.want)
		}
	}
}
