package launch

import (
	"fmt"
	"strconv"
	"strings"

	"paraplay/sim/scenario"
)

// Megatron-LM's flags for a plan (megatron/training/arguments.py; the
// Megatron-FSDP flags of Megatron Core's user guide):
//
//	parallel.tp, pp, cp, ep      --tensor-/--pipeline-/--context-/--expert-model-parallel-size
//	interleaved, v               --num-virtual-stages-per-pipeline-rank v
//	an uneven split of layers    --decoder-first/last-pipeline-num-layers (1F1B) or
//	                             --pipeline-model-parallel-layout (megatronlayout.go)
//	sequence_parallel            --sequence-parallel
//	tp_comm_overlap              --tp-comm-overlap
//	recompute selective          --recompute-granularity selective
//	recompute_modules a,b        --recompute-modules a b (Megatron-Core's names; with selective only)
//	recompute full               --recompute-granularity full --recompute-method uniform --recompute-num-layers 1
//	micro_batch_size, dp·m·b     --micro-batch-size, --global-batch-size
//	zero 1                       --use-distributed-optimizer
//	zero 2, 3                    + --use-megatron-fsdp --data-parallel-sharding-strategy optim_grads, optim_grads_params
//	grad_reduce overlap          --overlap-grad-reduce (Megatron's default reduces after the backward)
//	grad_accumulation unfused    --no-gradient-accumulation-fusion
//	precision bf16, fp16, fp8    --bf16, --fp16, --bf16 --fp8-format hybrid
//	dp (and the world size)      torchrun --nnodes --nproc-per-node (dp = world ÷ (tp·pp·cp))
//
// Megatron-LM's upstream schedules are 1F1B and interleaved 1F1B: the
// zero-bubble and V schedules have no flag.

// megatronName is Megatron-LM's name in messages.
const megatronName = "Megatron-LM"

// megatronSchedules are the schedules Megatron-LM runs.
var megatronSchedules = []string{"1f1b", "interleaved"}

// checkExpressible names the plan fields a framework cannot express.
func checkExpressible(s scenario.Scenario, framework string, schedules []string) error {
	p := s.Parallel
	// Megatron-LM writes any split of the layers (megatronlayout.go).
	uneven := (len(p.LayersPerStage) > 0 || p.FirstLastFewer > 0) && framework != megatronName
	switch {
	case s.Strategy != "training":
		return fmt.Errorf("strategy: %s; only training plans have a launch configuration", s.Strategy)
	case p.PP > 1 && !contains(schedules, p.Schedule), p.PP == 1 && p.Schedule != "1f1b" && !contains(schedules, p.Schedule):
		return fmt.Errorf("parallel.schedule: %s has no %s setting; %s runs %s", p.Schedule, framework, framework, strings.Join(schedules, ", "))
	case p.Order != "" && p.Order != "tp,cp,pp,dp":
		return fmt.Errorf("parallel.order: %s; the export writes the default order tp,cp,pp,dp only", p.Order)
	case uneven:
		return fmt.Errorf("parallel.layers_per_stage, first_last_fewer: %s's export writes the equal split only", framework)
	case p.Partition != "" && p.Partition != "equal":
		return fmt.Errorf("parallel.partition: %s; the export writes layer counts fixed before the run, not a split sized to the GPUs", p.Partition)
	case p.P2P != "" && p.P2P != "async":
		return fmt.Errorf("parallel.p2p: %s; the export writes asynchronous pipeline messages only", p.P2P)
	case len(s.Cluster.NodeGPUs) > 0:
		return fmt.Errorf("cluster.node_gpus: a mixed cluster has no launch configuration")
	case s.Model.IsSynthetic():
		return fmt.Errorf("model.synthetic: a synthetic model has no launch configuration")
	}
	return nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Megatron writes the plan s as a torchrun line to Megatron-LM's
// pretrain_gpt.py, one flag a line; FromMegatron reads it back.
func Megatron(s scenario.Scenario) (string, error) {
	if err := checkExpressible(s, megatronName, megatronSchedules); err != nil {
		return "", err
	}
	sh, err := shapeOf(s)
	if err != nil {
		return "", err
	}
	p := s.Parallel
	var f pairs
	f.int("tensor-model-parallel-size", p.TP).int("pipeline-model-parallel-size", p.PP)
	f.int("context-parallel-size", p.CP).int("expert-model-parallel-size", p.EP)
	if err := megatronSplit(&f, p, sh.layers); err != nil {
		return "", err
	}
	f.flag("sequence-parallel", p.SequenceParallel).flag("tp-comm-overlap", p.TPCommOverlap)
	switch p.Recompute {
	case "selective":
		f.add("recompute-granularity", "selective")
		if p.RecomputeModules != "" {
			f.add("recompute-modules", p.RecomputeModules)
		}
	case "full":
		f.add("recompute-granularity", "full").add("recompute-method", "uniform").int("recompute-num-layers", 1)
	}
	f.int("micro-batch-size", p.MicroBatchSize).int("global-batch-size", p.DP*p.Microbatches*p.MicroBatchSize)
	f.flag("use-distributed-optimizer", p.ZeRO >= 1)
	if p.ZeRO >= 2 {
		f.add("use-megatron-fsdp", "").add("data-parallel-sharding-strategy", [...]string{2: "optim_grads", 3: "optim_grads_params"}[p.ZeRO])
	}
	f.flag("overlap-grad-reduce", p.GradReduce != "after_backward")
	f.flag("no-gradient-accumulation-fusion", s.Training.GradAccumulation == "unfused")
	megatronPrecision(&f, s.Training.Precision)
	megatronModel(&f, sh)
	nodes, perNode := worldShape(s)
	var b strings.Builder
	b.WriteString(header(s, "megatron"))
	fmt.Fprintf(&b, "torchrun --nnodes %d --nproc-per-node %d pretrain_gpt.py", nodes, perNode)
	for _, kv := range f {
		b.WriteString(" \\\n  --" + kv[0])
		for _, v := range flagWords(kv[0], kv[1]) {
			b.WriteString(" " + shellWord(v))
		}
	}
	b.WriteString("\n")
	return b.String(), nil
}

// header is the comment line an export starts with: the plan and the
// command that wrote it.
func header(s scenario.Scenario, emit string) string {
	p := s.Parallel
	name := s.Model.Preset
	if name == "" {
		name = "a custom model"
	}
	return fmt.Sprintf("# %s on %d GPUs (%s): dp %d, tp %d, pp %d, cp %d, ep %d, zero %d, %s schedule; written by paraplay plan --emit %s\n",
		name, s.NumGPUs(), s.Cluster.GPU, p.DP, p.TP, p.PP, p.CP, p.EP, p.ZeRO, p.Schedule, emit)
}

// megatronPrecision adds the number format's flags.
func megatronPrecision(f *pairs, precision string) {
	switch precision {
	case "fp16":
		f.add("fp16", "")
	case "fp8":
		f.add("bf16", "").add("fp8-format", "hybrid")
	default:
		f.add("bf16", "")
	}
}

// megatronModel adds the model's shape and the data it trains on (mock
// data and a null tokenizer of the model's vocabulary: a benchmark line;
// a real run puts its --data-path and tokenizer there).
func megatronModel(f *pairs, sh shape) {
	f.int("num-layers", sh.layers).int("hidden-size", sh.hidden).int("ffn-hidden-size", sh.ffn)
	f.int("num-attention-heads", sh.heads)
	if sh.kvHeads != sh.heads {
		f.add("group-query-attention", "").int("num-query-groups", sh.kvHeads)
	}
	if sh.experts > 1 {
		f.int("num-experts", sh.experts).int("moe-router-topk", sh.topK).int("moe-ffn-hidden-size", sh.moeFFN)
	}
	f.int("seq-length", sh.seq).int("max-position-embeddings", sh.seq)
	f.flag("swiglu", sh.ffnKind == "swiglu")
	if sh.norm == "rmsnorm" {
		f.add("normalization", "RMSNorm")
	}
	if sh.position == "rope" {
		f.add("position-embedding-type", "rope")
	}
	f.flag("untie-embeddings-and-output-weights", !sh.tied).flag("disable-bias-linear", !sh.bias)
	f.add("mock-data", "").add("tokenizer-type", "NullTokenizer").int("vocab-size", sh.vocab)
}

// worldShape is the cluster as torchrun starts it: nodes and processes
// per node.
func worldShape(s scenario.Scenario) (nodes, perNode int) {
	n := s.NumGPUs()
	perNode = max(1, s.Cluster.GPUsPerNode)
	if n%perNode != 0 || s.Cluster.Nodes == 0 {
		return 1, n
	}
	return n / perNode, perNode
}

// flagWords are a flag's value as words: none for a lone flag, one per
// item for a list flag (parseFlags joins them back with commas).
func flagWords(name, value string) []string {
	switch {
	case value == "":
		return nil
	case contains(listFlags, name):
		return strings.Split(value, ",")
	}
	return []string{value}
}

// shellWord quotes v for a shell when it holds a character the shell
// would read (a layout's "|", "(" and "*").
func shellWord(v string) string {
	if strings.ContainsAny(v, "|()*&;<>$`\\\"' \t!?[]{}~#") {
		return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
	}
	return v
}

// pairs are flags in order, name and value ("" for a lone flag).
type pairs [][2]string

func (f *pairs) add(name, value string) *pairs { *f = append(*f, [2]string{name, value}); return f }
func (f *pairs) int(name string, v int) *pairs { return f.add(name, strconv.Itoa(v)) }
func (f *pairs) flag(name string, on bool) *pairs {
	if on {
		f.add(name, "")
	}
	return f
}
