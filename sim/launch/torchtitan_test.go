package launch

import (
	"fmt"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// ttPlans are plans across every schedule torchtitan runs, the ZeRO
// stages it has (0, 2, 3) and every recomputation policy.
func ttPlans() []scenario.Scenario {
	var out []scenario.Scenario
	for _, sc := range []struct {
		name string
		v    int
	}{{"1f1b", 1}, {"interleaved", 2}, {"interleaved", 5}, {"gpipe", 1}, {"zb-h1", 1}, {"zb-v", 1}, {"dualpipev", 1}} {
		for _, zero := range []int{0, 2, 3} {
			for i, rc := range []string{"none", "selective", "full"} {
				p := scenario.Default().Parallel
				p.DP, p.TP, p.PP, p.Schedule, p.VirtualStages, p.Microbatches, p.MicroBatchSize = 2, 4, 8, sc.name, sc.v, 16, 2
				p.ZeRO, p.Recompute, p.SequenceParallel, p.TPCommOverlap = zero, rc, i > 0, i == 2
				out = append(out, planScenario(p))
			}
		}
	}
	flat := planScenario(scenario.Parallel{DP: 16, TP: 2, PP: 1, CP: 2, EP: 1, Schedule: "1f1b", VirtualStages: 1,
		Microbatches: 4, MicroBatchSize: 2, Recompute: "none", Partition: "equal", ZeRO: 3})
	flat.Model = scenario.Model{Preset: "llama3-8b"}
	return append(out, flat)
}

// TestTorchtitanRoundTrip: every plan's job file, read back, is the same
// plan.
func TestTorchtitanRoundTrip(t *testing.T) {
	for i, s := range ttPlans() {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			text, err := Torchtitan(s)
			if err != nil {
				t.Fatalf("emit: %v", err)
			}
			back, err := FromTorchtitan(text, importBase(s))
			if err != nil {
				t.Fatalf("import:\n%s\n%v", text, err)
			}
			if got, want := canonical(t, back), canonical(t, s); got != want {
				t.Errorf("round trip of\n%s\ngot  %s\nwant %s", text, got, want)
			}
		})
	}
}

// TestTorchtitanRefuses: what torchtitan cannot express is named.
func TestTorchtitanRefuses(t *testing.T) {
	p := scenario.Default().Parallel
	p.DP, p.TP, p.PP, p.ZeRO = 2, 4, 8, 1
	for _, c := range []struct {
		edit func(*scenario.Scenario)
		want string
	}{
		{func(s *scenario.Scenario) {}, "parallel.zero: 1"},
		{func(s *scenario.Scenario) { s.Parallel.ZeRO, s.Model.Preset = 0, "gpt3-175b" }, "model: gpt3-175b"},
		{func(s *scenario.Scenario) { s.Parallel.ZeRO, s.Training.Precision = 0, "fp8" }, "training.precision: fp8"},
		{func(s *scenario.Scenario) { s.Parallel.ZeRO, s.Parallel.Schedule = 0, "zb-h2" }, "parallel.schedule: zb-h2"},
	} {
		s := planScenario(p)
		c.edit(&s)
		if _, err := Torchtitan(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v; want one containing %q", err, c.want)
		}
	}
	base := importBase(planScenario(p))
	good, _ := Torchtitan(ttPlans()[0])
	for _, c := range []struct{ edit, want string }{
		{"[float8]\nenable_fsdp_float8_all_gather = true\n", "torchtitan keys not understood: float8.enable_fsdp_float8_all_gather"},
		{"[parallelism]\ndata_parallel_replicate_degree = 2\n", "set twice"},
		{"[model]\nflavor = \"debugmodel\"\n", "set twice"},
		{"oops\n", "line"},
	} {
		if _, err := FromTorchtitan(good+c.edit, base); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v; want one containing %q", c.edit, err, c.want)
		}
	}
	bad := strings.Replace(good, `flavor = "70B"`, `flavor = "debugmodel"`, 1)
	if _, err := FromTorchtitan(bad, base); err == nil || !strings.Contains(err.Error(), "model.flavor") {
		t.Errorf("debugmodel: error %v; want model.flavor named", err)
	}
}

// FuzzFromTorchtitan: any job file gives a valid scenario or an error,
// never a panic; a scenario it gives exports and reads back the same.
func FuzzFromTorchtitan(f *testing.F) {
	for _, s := range ttPlans()[:8] {
		text, _ := Torchtitan(s)
		f.Add(text)
	}
	f.Add("[parallelism]\ndata_parallel_shard_degree = -1 # the rest\n[training]\nlocal_batch_size = 1_000\n[x y]\n")
	base := importBase(planScenario(scenario.Default().Parallel))
	f.Fuzz(func(t *testing.T, text string) {
		s, err := FromTorchtitan(text, base)
		if err != nil {
			return
		}
		again, err := Torchtitan(s)
		if err != nil {
			return
		}
		back, err := FromTorchtitan(again, base)
		if err != nil {
			t.Fatalf("re-import of\n%s\n%v", again, err)
		}
		if canonical(t, back) != canonical(t, s) {
			t.Errorf("not a fixed point:\n%s", again)
		}
	})
}

// TestDeepSpeed: the config's batch fields multiply out and the ZeRO
// stage is the plan's; model-code settings go to the note.
func TestDeepSpeed(t *testing.T) {
	for zero := 0; zero <= 3; zero++ {
		p := scenario.Default().Parallel
		p.DP, p.TP, p.Microbatches, p.MicroBatchSize, p.ZeRO = 8, 8, 4, 2, zero
		c, note, err := DeepSpeed(planScenario(p))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"train_batch_size": 64`, `"train_micro_batch_size_per_gpu": 2`, `"gradient_accumulation_steps": 4`,
			fmt.Sprintf(`"stage": %d`, zero), `"bf16": {`} {
			if !strings.Contains(c, want) {
				t.Errorf("zero %d: config lacks %s:\n%s", zero, want, c)
			}
		}
		if !strings.Contains(note, "tensor parallel 8") {
			t.Errorf("note %q; want tensor parallel 8", note)
		}
	}
	p := scenario.Default().Parallel
	p.PP, p.Schedule = 4, "zb-v"
	if _, _, err := DeepSpeed(planScenario(p)); err == nil || !strings.Contains(err.Error(), "parallel.schedule") {
		t.Errorf("zb-v: error %v; want parallel.schedule named", err)
	}
}
