package launch

import (
	"fmt"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// canonical is a scenario's plan as one string: its URL query, with the
// sequence length resolved (a preset's own, or the override).
func canonical(t *testing.T, s scenario.Scenario) string {
	t.Helper()
	m, err := s.Model.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	s.Model.SeqLen = m.SeqLen
	return s.Query().Encode()
}

// roundTripPlans are plans across every schedule Megatron-LM runs, every
// ZeRO stage, recomputation policy and precision, and a mixture of
// experts.
func roundTripPlans() []scenario.Scenario {
	var out []scenario.Scenario
	for _, sc := range []struct {
		name string
		v    int
	}{{"1f1b", 1}, {"interleaved", 2}, {"interleaved", 4}} {
		for zero := 0; zero <= 3; zero++ {
			for i, rc := range []string{"none", "selective", "full"} {
				p := scenario.Default().Parallel
				p.DP, p.TP, p.PP, p.Schedule, p.VirtualStages, p.Microbatches, p.MicroBatchSize = 2, 4, 8, sc.name, sc.v, 16, 2
				p.ZeRO, p.Recompute, p.SequenceParallel, p.TPCommOverlap = zero, rc, i > 0, i == 2
				s := planScenario(p)
				s.Training.Precision = []string{"bf16", "fp16", "fp8"}[(zero+i)%3]
				if zero == 2 {
					p.GradReduce = "after_backward"
					s.Training.GradAccumulation = "unfused"
				}
				out = append(out, s)
			}
		}
	}
	moe := planScenario(scenario.Parallel{DP: 8, TP: 2, PP: 2, CP: 2, EP: 4, Schedule: "1f1b", VirtualStages: 1,
		Microbatches: 4, MicroBatchSize: 1, Recompute: "full", Partition: "equal", ZeRO: 1})
	moe.Model = scenario.Model{Preset: "mixtral-8x7b", Layers: 16}
	out = append(out, moe)
	// Selective recomputation by module, in Megatron-Core's list form.
	moeMods := moe
	moeMods.Parallel.Recompute, moeMods.Parallel.RecomputeModules = "selective", "core_attn,moe_act"
	dense := planScenario(scenario.Parallel{DP: 8, TP: 4, PP: 2, CP: 1, EP: 1, Schedule: "1f1b", VirtualStages: 1,
		Microbatches: 8, MicroBatchSize: 1, Recompute: "selective", RecomputeModules: "layernorm", Partition: "equal"})
	return append(out, moeMods, dense)
}

// TestMegatronRoundTrip: every plan's Megatron-LM line, read back, is the
// same plan.
func TestMegatronRoundTrip(t *testing.T) {
	for i, s := range roundTripPlans() {
		t.Run(fmt.Sprint(i), func(t *testing.T) { megatronRoundTrip(t, s) })
	}
}

// megatronRoundTrip emits s as Megatron-LM flags, reads them back and
// fails t unless that gives the same plan; it returns the flags.
func megatronRoundTrip(t *testing.T, s scenario.Scenario) string {
	t.Helper()
	line, err := Megatron(s)
	if err != nil {
		t.Fatalf("emit: %v", err)
	}
	back, err := FromMegatron(line, importBase(s))
	if err != nil {
		t.Fatalf("import:\n%s\n%v", line, err)
	}
	if got, want := canonical(t, back), canonical(t, s); got != want {
		t.Errorf("round trip of\n%s\ngot  %s\nwant %s", line, got, want)
	}
	return line
}

// TestMegatronRefuses: a plan Megatron-LM cannot run is an error naming
// the field and what Megatron-LM allows.
func TestMegatronRefuses(t *testing.T) {
	for _, sched := range []string{"zb-h1", "zb-v", "dualpipev", "gpipe"} {
		p := scenario.Default().Parallel
		p.DP, p.TP, p.PP, p.Schedule = 2, 4, 8, sched
		_, err := Megatron(planScenario(p))
		if err == nil || !strings.Contains(err.Error(), "parallel.schedule: "+sched) || !strings.Contains(err.Error(), "1f1b, interleaved") {
			t.Errorf("%s: error %v; want one naming parallel.schedule and Megatron-LM's schedules", sched, err)
		}
	}
}

// TestFromMegatronNamesFlags: unknown flags and bad values are named.
func TestFromMegatronNamesFlags(t *testing.T) {
	base := importBase(planScenario(scenario.Default().Parallel))
	good := "torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py --tensor-model-parallel-size 8 --bf16 " +
		"--num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 --num-attention-heads 32 --group-query-attention " +
		"--num-query-groups 8 --seq-length 8192 --swiglu --normalization RMSNorm --position-embedding-type rope " +
		"--untie-embeddings-and-output-weights --disable-bias-linear --micro-batch-size 1 --global-batch-size 16 --lr 3e-4"
	s, err := FromMegatron(good, base)
	if err != nil {
		t.Fatal(err)
	}
	if s.Model.Preset != "llama3-8b" || s.Parallel.DP != 2 || s.Parallel.Microbatches != 8 || s.Parallel.GradReduce != "after_backward" {
		t.Errorf("got model %+v, parallel %+v; want llama3-8b, dp 2, 8 microbatches, reduce after the backward", s.Model, s.Parallel)
	}
	for _, c := range []struct{ extra, want string }{
		{" --frobnicate 3 --qk-layernorm", "Megatron-LM flag not understood: --frobnicate, --qk-layernorm"},
		{" --tensor-model-parallel-size x", `--tensor-model-parallel-size: "x"`},
		{" --global-batch-size 17", "--global-batch-size: 17 is not a multiple"},
		{" --recompute-method block", `--recompute-granularity: "block"`},
		{" --data-parallel-sharding-strategy optim", "applies with --use-megatron-fsdp"},
		{" --optimizer sgd", "--optimizer"},
		{" --recompute-granularity selective --recompute-modules core_attn mlp", `--recompute-modules: "mlp" is not a module`},
		{" --recompute-granularity selective --recompute-modules", "--recompute-modules: names no module"},
		{" --recompute-granularity full --recompute-modules moe_act", "--recompute-modules: applies with --recompute-granularity selective"},
		{" --hidden-size 4000", "no model preset has hidden size 4000"},
		{" stray", `"stray"`},
		{" 'unclosed", "unclosed"},
	} {
		line := good + c.extra
		if c.extra == " --recompute-method block" {
			line += " --recompute-granularity block"
		}
		if _, err := FromMegatron(line, base); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v; want one containing %q", c.extra, err, c.want)
		}
	}
	if _, err := FromMegatron(strings.Replace(good, "--bf16", "", 1), base); err == nil || !strings.Contains(err.Error(), "fp32") {
		t.Errorf("no precision flag: error %v; want fp32 named", err)
	}
}

// FuzzFromMegatron: any line gives a valid scenario or an error, never a
// panic; a scenario it gives exports and reads back the same.
func FuzzFromMegatron(f *testing.F) {
	for _, s := range roundTripPlans()[:6] {
		line, _ := Megatron(s)
		f.Add(line)
	}
	f.Add("torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py --pipeline-model-parallel-size 4 --bf16 --num-layers 32 --hidden-size 4096 " +
		"--num-attention-heads 32 --seq-length 2048 --pipeline-model-parallel-layout Et*3|(t*4|)*6,t*5L --decoder-last-pipeline-num-layers 2")
	f.Add("torchrun --nnodes 0 --nproc_per_node=-1 x.py --tensor-model-parallel-size 99999999999 --num-layers-per-virtual-pipeline-stage 0")
	f.Add(`--num-layers "3 \\` + "\n" + `--hidden-size=8 # comment`)
	base := importBase(planScenario(scenario.Default().Parallel))
	f.Fuzz(func(t *testing.T, line string) {
		s, err := FromMegatron(line, base)
		if err != nil {
			return
		}
		again, err := Megatron(s)
		if err != nil {
			return // e.g. a model.layers override Megatron writes but the plan's checks refuse
		}
		back, err := FromMegatron(again, base)
		if err != nil {
			t.Fatalf("re-import of\n%s\n%v", again, err)
		}
		if canonical(t, back) != canonical(t, s) {
			t.Errorf("not a fixed point:\n%s", again)
		}
	})
}
