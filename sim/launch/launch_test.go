package launch

import (
	"strings"
	"testing"

	_ "paraplay/sim/run" // registers the strategies
	"paraplay/sim/scenario"
)

// planScenario is a plan as the planner writes it: llama3-70b on 8 × 8
// H100s at 4K tokens.
func planScenario(p scenario.Parallel) scenario.Scenario {
	s := scenario.Default()
	s.Strategy, s.Fidelity = "training", "analytic"
	s.Model = scenario.Model{Preset: "llama3-70b", SeqLen: 4096}
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 8, GPUsPerNode: 8}
	s.Parallel = p
	return s
}

// importBase is what paraplay run starts an import from: the default
// scenario on the plan's GPU type.
func importBase(s scenario.Scenario) scenario.Scenario {
	b := scenario.Default()
	b.Fidelity = "analytic"
	b.Cluster.GPU = s.Cluster.GPU
	return b
}

func TestMegatronExample(t *testing.T) {
	p := scenario.Default().Parallel
	p.DP, p.TP, p.PP, p.Schedule, p.VirtualStages, p.Microbatches, p.ZeRO, p.SequenceParallel, p.Recompute = 2, 8, 4, "interleaved", 2, 16, 1, true, "selective"
	out, err := Megatron(planScenario(p))
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out)
	for _, want := range []string{"torchrun --nnodes 8 --nproc-per-node 8 pretrain_gpt.py", "--tensor-model-parallel-size 8", "--pipeline-model-parallel-size 4",
		"--num-virtual-stages-per-pipeline-rank 2", "--sequence-parallel", "--recompute-granularity selective", "--micro-batch-size 1",
		"--global-batch-size 32", "--use-distributed-optimizer", "--overlap-grad-reduce", "--bf16", "--num-layers 80", "--num-query-groups 8"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}
