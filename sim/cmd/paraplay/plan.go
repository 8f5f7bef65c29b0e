package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"paraplay/sim/cost"
	"paraplay/sim/plan"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
)

const planUsage = `paraplay plan searches every parallel plan of a model on a cluster for a
global batch (dp × tp × pp × cp, × ep for mixtures of experts; pipeline
schedule; ZeRO stage; recomputation; micro-batch size), rules out what does
not fit in memory or cannot beat the best, simulates the rest at analytic
fidelity, and prints the best plans and why the others lost.

Examples:
  paraplay plan --model llama3-70b --gpus 64 --gpu h100-sxm --global-batch 512 --seq-len 8192
  paraplay plan --model llama3-8b --gpus 16 --global-batch 64 --top 5 --detailed-top 2
  paraplay plan --model mixtral-8x7b --gpus 32 --global-batch 128 --json
  paraplay plan --model llama3-70b --gpus 64 --global-batch 512 --tokens 15T --gpu-hour 2
  paraplay plan --model llama3-70b --gpus 64 --global-batch 512 --emit megatron
  paraplay plan --model llama3-8b --gpu tpu-v5p --topology 4x4x4 --global-batch 64

Flags:
`

// planFlags are the command's settings.
// maxPlanGPUs caps --gpus: the planner screens some 30,000 plans and
// simulates the best; 16,384 GPUs is the frontier case of issue 24
// (Llama 3 405B as Dubey et al. 2024 trained it); on 65,536 it ran past
// a minute (issue 19). Larger clusters are planned at this size and
// scaled by data parallelism.
const maxPlanGPUs = 16384

type planFlags struct {
	model, gpu, intra, inter, network   string
	topology                            string
	gpus, perNode, batch, seqLen        int
	maxMicroBatch, top, detailed        int
	workers, maxSims                    int
	efficiency                          float64
	tokens                              string
	gpuHour, pue, grid                  float64
	emit                                string
	crossNodeTP, exhaustive, zeroLayers bool
	json, csv, quiet                    bool
}

// planFlagSet declares the flags on a fresh set writing to out.
func planFlagSet(f *planFlags, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("paraplay plan", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&f.model, "model", "", "model preset, e.g. llama3-70b (required)")
	fs.IntVar(&f.gpus, "gpus", 0, "number of GPUs, a multiple of --gpus-per-node (required)")
	fs.StringVar(&f.gpu, "gpu", "h100-sxm", "GPU preset (paraplay presets lists them)")
	fs.IntVar(&f.perNode, "gpus-per-node", 8, "GPUs per server")
	fs.StringVar(&f.topology, "topology", "", "a TPU slice's shape, e.g. 4x4x4 with --gpu tpu-v5p: plan meshes on its torus (--gpus is then its chips)")
	fs.StringVar(&f.intra, "link", "", "intra-node link preset (default: the GPU preset's)")
	fs.StringVar(&f.inter, "inter", "", "inter-node NIC preset (default: ib-ndr)")
	fs.StringVar(&f.network, "network", "", "inter-node wiring: rail-optimized (default), fat-tree or ideal")
	fs.IntVar(&f.batch, "global-batch", 0, "sequences per iteration, dp × microbatches × micro-batch size (required)")
	fs.IntVar(&f.seqLen, "seq-len", 0, "sequence length in tokens (default: the model's)")
	fs.Float64Var(&f.efficiency, "efficiency", 0, "fraction of peak FLOP/s reached, 0 < e ≤ 1 (default: the GPU preset's)")
	fs.IntVar(&f.maxMicroBatch, "max-micro-batch", plan.DefaultMaxMicroBatch, "largest micro-batch size tried (powers of two)")
	fs.BoolVar(&f.crossNodeTP, "cross-node-tp", false, "let tensor-parallel groups span servers")
	fs.BoolVar(&f.zeroLayers, "zero-layers", false, "also try per-layer sharding for ZeRO-3 plans (parallel.zero_layers, OSDP)")
	fs.BoolVar(&f.exhaustive, "exhaustive", false, "simulate every plan that fits instead of stopping at the bound")
	fs.IntVar(&f.top, "top", 10, "plans to print, best first (0 = all)")
	fs.IntVar(&f.detailed, "detailed-top", 0, "re-simulate the best k plans at detailed fidelity")
	fs.IntVar(&f.maxSims, "max-simulations", 0, "simulate at most this many plans, the best bounds first, and report how much better the rest could be (0 = no cap)")
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "simulations at a time")
	fs.StringVar(&f.tokens, "tokens", "", "a token budget, e.g. 15T: the cost column and the JSON price the whole run (default: a million tokens)")
	fs.Float64Var(&f.gpuHour, "gpu-hour", 0, "dollars per GPU-hour (default: the GPU preset's assumed, illustrative rate)")
	fs.Float64Var(&f.pue, "pue", 0, "the facility's power usage effectiveness (default 1.3)")
	fs.Float64Var(&f.grid, "grid-kg-per-kwh", 0, "the grid's carbon intensity in kg CO2 per kWh (default 0.481, the world's in 2023)")
	fs.StringVar(&f.emit, "emit", "", "print the best plan as a launch configuration instead of the table: megatron (command-line flags), torchtitan (TOML) or deepspeed (JSON)")
	fs.BoolVar(&f.json, "json", false, `print {"plans": [...]} as JSON, best first`)
	fs.BoolVar(&f.csv, "csv", false, "print the plans as CSV, best first")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	return fs
}

func planCommand(args []string, stdout, stderr io.Writer) int {
	var f planFlags
	fs := planFlagSet(&f, stderr)
	fs.Usage = func() { fmt.Fprint(stderr, planUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "paraplay plan: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	cfg, err := f.config()
	if err != nil {
		fmt.Fprintf(stderr, "paraplay plan: invalid flags:\n%s\n", indent(err))
		return exitUsage
	}
	bar := &planBar{w: stderr, off: f.quiet, last: -1}
	r, err := plan.Run(cfg, f.workers, bar.update)
	bar.done()
	if err != nil {
		fmt.Fprintf(stderr, "paraplay plan: %v\n", err)
		return exitError
	}
	shown := r.Plans
	if f.top > 0 && f.top < len(shown) {
		shown = shown[:f.top]
	}
	switch {
	case f.emit != "":
		err = writeEmit(stdout, stderr, f.emit, r)
	case f.json:
		err = writePlanJSON(stdout, shown, cfg.Training.Tokens, planWhy(r))
	case f.csv:
		err = writePlanCSV(stdout, shown)
	default:
		err = writePlanText(stdout, r, shown)
	}
	if err != nil {
		fmt.Fprintf(stderr, "paraplay plan: %v\n", err)
		return exitError
	}
	return 0
}

// config checks the flags and turns them into a plan.Config; every error
// names its flag and what it allows.
func (f *planFlags) config() (plan.Config, error) {
	var errs []error
	bad := func(flag, format string, args ...any) {
		errs = append(errs, fmt.Errorf("--%s: "+format, append([]any{flag}, args...)...))
	}
	if f.model == "" {
		bad("model", "is required: a model preset, e.g. llama3-70b")
	}
	switch {
	case f.topology != "":
		s := scenario.Scenario{Cluster: scenario.Cluster{Topology: f.topology}}
		if n := s.NumGPUs(); f.gpus != 0 && f.gpus != n {
			bad("gpus", "is %d but the slice %s has %d chips; give one or the other", f.gpus, f.topology, n)
		}
	case f.perNode < 1 || f.perNode > scenario.MaxPerNode:
		bad("gpus-per-node", "is %d; allowed 1..%d", f.perNode, scenario.MaxPerNode)
	case f.gpus < 1 || f.gpus > maxPlanGPUs || f.gpus%f.perNode != 0:
		bad("gpus", "is %d; allowed 1..%d, a multiple of --gpus-per-node (%d)", f.gpus, maxPlanGPUs, f.perNode)
	}
	if f.seqLen < 0 {
		bad("seq-len", "is %d; allowed 1..%d (0 = the model's)", f.seqLen, 1<<22)
	}
	if f.top < 0 {
		bad("top", "is %d; allowed 0 (all) or more", f.top)
	}
	if f.workers < 1 || f.workers > 1024 {
		bad("workers", "is %d; allowed 1..1024", f.workers)
	}
	if f.json && f.csv {
		bad("csv", "and --json both given; choose one")
	}
	if f.emit != "" && !slices.Contains(emitFormats, f.emit) {
		bad("emit", "%q; allowed %s", f.emit, strings.Join(emitFormats, ", "))
	}
	if f.emit != "" && (f.json || f.csv) {
		bad("emit", "and --json or --csv both given; choose one")
	}
	var tokens float64
	if f.tokens != "" {
		var err error
		if tokens, err = cost.ParseTokens(f.tokens); err != nil {
			bad("tokens", "%v", err)
		}
	}
	perNode, nodes := max(1, f.perNode), 1
	if len(errs) == 0 && f.topology == "" {
		nodes = f.gpus / perNode
	}
	cl := scenario.Cluster{GPU: f.gpu, Nodes: nodes, GPUsPerNode: perNode, Intra: f.intra, Inter: f.inter, Network: f.network}
	if f.topology != "" {
		cl = scenario.Cluster{GPU: f.gpu, Topology: f.topology}
	}
	cfg := plan.Config{
		Model:       scenario.Model{Preset: f.model, SeqLen: f.seqLen},
		Cluster:     cl,
		GlobalBatch: f.batch, MaxMicroBatch: f.maxMicroBatch, CrossNodeTP: f.crossNodeTP, ZeROLayers: f.zeroLayers,
		Exhaustive: f.exhaustive, Detailed: f.detailed, MaxSimulations: f.maxSims,
		Training: scenario.Training{Efficiency: f.efficiency, Tokens: tokens},
		Cost:     training.Cost{GPUHour: f.gpuHour, PUE: f.pue, GridKgPerKWh: f.grid},
	}
	// Report the config's own problems too, except those the checks above
	// already named (the cluster's shape, a missing model).
	if err := cfg.Validate(); err != nil {
		for _, e := range flattenErr(flagErrors(err)) {
			msg := e.Error()
			if len(errs) > 0 && (strings.HasPrefix(msg, "--gpus") || f.model == "" && strings.HasPrefix(msg, "--model")) {
				continue
			}
			errs = append(errs, e)
		}
	}
	return cfg, errors.Join(errs...)
}

// configFlags maps the config's field names to the flags that set them.
var configFlags = [][2]string{
	{"global_batch", "--global-batch"}, {"max_micro_batch", "--max-micro-batch"}, {"detailed", "--detailed-top"},
	{"max_simulations", "--max-simulations"},
	{"cluster.gpus_per_node", "--gpus-per-node"}, {"cluster.nodes", "--gpus"}, {"cluster.gpu", "--gpu"},
	{"cluster.topology", "--topology"}, {"cluster.intra", "--link"}, {"cluster.inter", "--inter"}, {"cluster.network", "--network"},
	{"model.seq_len", "--seq-len"}, {"model.preset", "--model"}, {"model", "--model"},
	{"training.efficiency", "--efficiency"}, {"training.tokens", "--tokens"},
	{"cost.gpu_hour", "--gpu-hour"}, {"cost.pue", "--pue"}, {"cost.grid_kg_per_kwh", "--grid-kg-per-kwh"},
}

// flagErrors renames the config's fields in err to the flags that set them.
func flagErrors(err error) error {
	var out []error
	for _, e := range flattenErr(err) {
		msg := e.Error()
		for _, m := range configFlags {
			if strings.HasPrefix(msg, m[0]+":") || strings.HasPrefix(msg, m[0]+" ") {
				msg = m[1] + msg[len(m[0]):]
				break
			}
		}
		out = append(out, errors.New(msg))
	}
	return errors.Join(out...)
}

func flattenErr(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flattenErr(e)...)
		}
		return out
	}
	return []error{err}
}

// planBar draws the search's progress on stderr, redrawn when the
// percentage changes.
type planBar struct {
	w     io.Writer
	off   bool
	last  int
	shown bool
}

func (b *planBar) update(p plan.Progress) {
	if b.off || p.Total <= 0 {
		return
	}
	pct := int(100 * p.Fraction())
	if pct == b.last && p.Phase != "done" {
		return
	}
	b.last, b.shown = pct, true
	n := barWidth * pct / 100
	best := "-"
	if p.Best > 0 {
		best = fmtSeconds(p.Best)
	}
	fmt.Fprintf(b.w, "\rplan [%s%s] %3d%% %-10s %d plans, %d out of memory, %d bounded, %d simulated, best %s   ",
		strings.Repeat("#", n), strings.Repeat(".", barWidth-n), pct, p.Phase, p.Plans, p.OutOfMemory, p.Bounded, p.Simulated, best)
}

func (b *planBar) done() {
	if b.shown {
		fmt.Fprintln(b.w)
	}
}
