package timeline_test

import (
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// maxFuzzInput bounds the fuzzer's timelines, so that every input is checked
// in milliseconds.
const maxFuzzInput = 64 << 10

// maxSeed bounds the seeds: the fuzzer minimizes every input that finds new
// code, in time that grows with its size, so small seeds keep it fast.
const maxSeed = 12 << 10

// smallScenarios are runs of every strategy small enough to seed the
// fuzzer (most test-data scenarios make larger timelines).
var smallScenarios = []string{`
name: serving, 2 stages
strategy: inference
gpus: 2
cluster: {gpu: h100-sxm}
model: {preset: llama3-8b}
parallel: {dp: 1, tp: 1, pp: 2}
inference: {requests: 1, prompt: 16, output: 2, sampling: cpu, host_time: 20us}
`, `
name: restart after a fail-stop
fidelity: analytic
model: {preset: gpt3-1.3b}
cluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 2}
parallel: {dp: 2, microbatches: 1}
iterations: 2
faults:
  - {at: 0s, gpu: 1, kind: fail_slow, factor: 0.5}
  - {at: 30ms, gpu: 0, kind: fail_stop}
recovery: {policy: checkpoint-restart, heartbeat_timeout: 10ms, restart_cost: 20ms, checkpoint_interval: 0s, checkpoint_cost: 5ms}
`, `
name: parameter server
strategy: parameter-server
gpus: 2
collective: {size: 1MiB}
iterations: 2
sync: {mode: ssp, staleness: 1, speeds: "1,0.5"}
`, `
name: local SGD
strategy: local-sgd
gpus: 2
collective: {size: 1MiB}
iterations: 2
sync: {period: 2, layers: 1}
`, `
name: disaggregated RLHF
strategy: rlhf
gpus: 4
iterations: 3
rlhf: {placement: disaggregated, actor: llama3-8b, reward: llama3-8b, reference: llama3-8b, prompts: 8, prompt_len: 64,
  response_len: 64, gen_gpus: 2, gen_tp: 1, gen_gpu: h20, train_gpu: h100-sxm, queue: 1, staleness: 1, sync_every: 1}
`, `
name: all-reduce
strategy: collective
cluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 2}
collective: {op: all_reduce, algorithm: ring, size: 1MiB}
`}

// fuzzSeeds is the JSON of every timeline of the test-data scenarios and
// smallScenarios no larger than maxSeed.
func fuzzSeeds(f *testing.F) [][]byte {
	files, err := filepath.Glob("../scenario/testdata/*.yaml")
	if err != nil || len(files) == 0 {
		f.Fatalf("no scenario in ../scenario/testdata (%v)", err)
	}
	var tls []*timeline.Timeline
	for _, file := range files {
		tls = append(tls, simulateFile(f, file))
	}
	for i, src := range smallScenarios {
		s, err := scenario.Parse([]byte(src))
		if err != nil {
			f.Fatalf("smallScenarios[%d]: %v", i, err)
		}
		tl, err := run.Simulate(s)
		if err != nil {
			f.Fatalf("smallScenarios[%d]: %v", i, err)
		}
		tls = append(tls, tl)
	}
	var seeds [][]byte
	for _, tl := range tls {
		data, err := json.Marshal(tl)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= maxSeed {
			seeds = append(seeds, data)
		}
	}
	return seeds
}

// FuzzValidate decodes a timeline and checks, summarizes and prints it:
// whatever the input (ids out of range, negative sizes, huge counts), none
// of them may panic.
func FuzzValidate(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		// A value of the wrong type leaves its field zero and the rest
		// decoded: still a timeline to check.
		var tl timeline.Timeline
		var typeErr *json.UnmarshalTypeError
		if err := json.Unmarshal(data, &tl); err != nil && !errors.As(err, &typeErr) {
			return
		}
		_ = tl.Validate()
		s := tl.Summarize()
		if err := s.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		_, _ = json.Marshal(s) // NaN figures are an error, not a panic
	})
}
