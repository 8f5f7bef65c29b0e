package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"paraplay/sim/launch"
	"paraplay/sim/plan"
	"paraplay/sim/scenario"
)

// importFlags are paraplay run's flags that build the scenario from a
// framework's launch configuration instead of a file (package launch).
type importFlags struct {
	megatron, torchtitan string
	gpu                  string
	gpusPerNode          int
}

func (f *importFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.megatron, "from-megatron", "", `run the plan of a Megatron-LM launch line, e.g. "torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py --tensor-model-parallel-size 8 …"; flags it does not understand are named`)
	fs.StringVar(&f.torchtitan, "from-torchtitan", "", "run the plan of a torchtitan job file (TOML); keys it does not understand are named")
	fs.StringVar(&f.gpu, "gpu", "h100-sxm", "with --from-megatron or --from-torchtitan: the GPU preset (a launch line does not name it)")
	fs.IntVar(&f.gpusPerNode, "gpus-per-node", 8, "with --from-torchtitan: GPUs per node (the job file gives only the degrees)")
}

// count is how many of --from-megatron and --from-torchtitan are given.
func (f importFlags) count() int {
	n := 0
	for _, v := range []string{f.megatron, f.torchtitan} {
		if v != "" {
			n++
		}
	}
	return n
}

// source names the import in messages.
func (f importFlags) source() string {
	if f.megatron != "" {
		return "--from-megatron"
	}
	return "--from-torchtitan " + f.torchtitan
}

// load reads the scenario: the file, or the launch configuration.
func (f importFlags) load(file string) (scenario.Scenario, error) {
	if f.count() == 0 {
		data, err := os.ReadFile(file)
		if err != nil {
			return scenario.Scenario{}, err
		}
		return scenario.Parse(data)
	}
	base := scenario.Default()
	base.Fidelity = "analytic"
	base.Cluster.GPU, base.Cluster.GPUsPerNode = f.gpu, f.gpusPerNode
	if f.megatron != "" {
		return launch.FromMegatron(f.megatron, base)
	}
	data, err := os.ReadFile(f.torchtitan)
	if err != nil {
		return scenario.Scenario{}, err
	}
	return launch.FromTorchtitan(string(data), base)
}

// emitFormats are --emit's values.
var emitFormats = []string{"megatron", "torchtitan", "deepspeed"}

// emitText is the best plan s in the format --emit names, and a note for
// the terminal.
func emitText(format string, s scenario.Scenario) (text, note string, err error) {
	switch format {
	case "megatron":
		text, err = launch.Megatron(s)
	case "torchtitan":
		text, err = launch.Torchtitan(s)
	case "deepspeed":
		text, note, err = launch.DeepSpeed(s)
	default:
		err = fmt.Errorf("--emit: %q; allowed megatron, torchtitan, deepspeed", format)
	}
	return text, note, err
}

// writeEmit prints the search's best plan as --emit asks. When the
// framework cannot run the best plan (a schedule it has no setting for),
// it prints the fastest simulated plan it can run, and says so first, on
// the terminal and in the file's opening comment.
func writeEmit(stdout, stderr io.Writer, format string, r *plan.Result) error {
	if len(r.Plans) == 0 || r.Plans[0].Status != plan.Best {
		return fmt.Errorf("--emit %s: no plan fits in memory", format)
	}
	best := r.Plans[0]
	text, note, err := emitText(format, best.Scenario)
	if err != nil {
		why := err
		for _, p := range r.Plans[1:] {
			if p.Status != plan.Simulated || !p.Fits || p.Result.OOM {
				continue
			}
			if text, note, err = emitText(format, p.Scenario); err == nil {
				warn := fmt.Sprintf("the best plan (%s, %s) cannot be written for %s: %v; written instead: the fastest simulated plan it can run (%s, %s, %+.1f%%)",
					best.Label(), best.Result.Iteration, format, why, p.Label(), p.Result.Iteration,
					100*(p.Result.Iteration.Seconds()/best.Result.Iteration.Seconds()-1))
				fmt.Fprintln(stderr, "paraplay plan: NOTE: "+warn)
				text = commentFor(format, "NOTE: "+warn) + text
				break
			}
		}
		if err != nil {
			return fmt.Errorf("--emit %s: the best plan: %w (and no other simulated plan can be written)", format, why)
		}
	}
	if note != "" {
		fmt.Fprintln(stderr, "paraplay plan: "+note)
	}
	_, err = io.WriteString(stdout, text)
	return err
}

// commentFor is line as a comment of format's file: # for a shell line
// or TOML; JSON has no comments, so nothing (the terminal note stands).
func commentFor(format, line string) string {
	if format == "deepspeed" {
		return ""
	}
	return "# " + line + "\n"
}
