package scenario_test

import (
	"errors"
	"net/url"
	"os"
	_ "paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/units"
)

func TestDefaultIsValid(t *testing.T) {
	s := scenario.Default()
	if err := s.Validate(); err != nil {
		t.Errorf("scenario.Default().Validate() = %v", err)
	}
}

func TestExampleFilesParse(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.yaml")
	if len(files) == 0 {
		t.Fatal("no example scenarios in testdata/")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := scenario.Parse(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestParse(t *testing.T) {
	s, err := scenario.Parse([]byte("gpus: 8\nlink:\n  bandwidth: 50GB/s\n  latency: 10us\ncollective:\n  size: 64KiB\nseed: 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := scenario.Default()
	want.GPUs, want.Link.Bandwidth, want.Link.Latency, want.Collective.Size, want.Seed = 8, 50e9, 10*units.Microsecond, 64*units.KiB, 3
	if !reflect.DeepEqual(s, want) {
		t.Errorf("scenario.Parse = %+v, want %+v", s, want)
	}
	// JSON is YAML too.
	j, err := scenario.Parse([]byte(`{"gpus": 8, "link": {"bandwidth": "50GB/s", "latency": "10us"}, "collective": {"size": "64KiB"}, "seed": 3}`))
	if err != nil || !reflect.DeepEqual(j, want) {
		t.Errorf("scenario.Parse(JSON) = %+v, %v; want %+v", j, err, want)
	}
}

func TestParseErrorsNameTheField(t *testing.T) {
	tests := []struct {
		in    string
		field string // every one of these must appear
		more  string
	}{
		{"gpus: 999\n", "gpus", "1..64"},
		{"gpus: four\n", "gpus", "line 1"},
		{"link:\n  bandwidth: 0GB/s\n", "link.bandwidth", "line 2"},
		{"link:\n  latency: 2\n", "link.latency", "unit"},
		{"compute:\n  jitter: 2\n", "compute.jitter", "0..0.9"},
		{"collective:\n  algorithm: magic\n", "collective.algorithm", "ring"},
		{"collective:\n  size: 2TiB\n", "collective.size", "1TiB"},
		{"collective:\n  protocol: LL\n", "collective.protocol", "ll128"},
		{"collective:\n  protocol: fast\n", "collective.protocol", "auto"},
		{"colour: blue\n", "colour", "unknown key"},
		{"link:\n  speed: 1GB/s\n", "link.speed", "unknown key"},
		{"gpus: [1, 2]\n", "gpus", "single value"},
		{"strategy: pipeline\n", "strategy", "collective"},
		{"seed: -1\n", "seed", "whole number"},
		{"- 1\n- 2\n", "mapping", "line 1"},
		{"gpus: 4\ngpus: 8\n", "gpus", ""},
		{"{", "YAML", ""},
	}
	for _, tc := range tests {
		_, err := scenario.Parse([]byte(tc.in))
		if err == nil {
			t.Errorf("scenario.Parse(%q) = nil error", tc.in)
			continue
		}
		for _, w := range []string{tc.field, tc.more} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("scenario.Parse(%q) error %q does not mention %q", tc.in, err, w)
			}
		}
	}
}

func TestEmptyFileIsDefault(t *testing.T) {
	s, err := scenario.Parse(nil)
	if err != nil || !reflect.DeepEqual(s, scenario.Default()) {
		t.Errorf("scenario.Parse(nil) = %+v, %v; want scenario.Default()", s, err)
	}
}

func TestQueryRoundTrip(t *testing.T) {
	s := scenario.Default()
	s.GPUs, s.Collective.Size, s.Link.Latency, s.Compute.Jitter, s.Seed, s.Name = 8, 64*units.KiB, 10*units.Microsecond, 0.25, 42, "a <b> & c"
	q := s.Query()
	back, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatalf("scenario.FromQuery(%v) = %v", q.Encode(), err)
	}
	if !reflect.DeepEqual(back, s) {
		t.Errorf("scenario.FromQuery(Query()) = %+v, want %+v", back, s)
	}
	if d := scenario.Default(); len(d.Query()) != 0 {
		t.Errorf("scenario.Default().Query() = %v, want empty", d.Query())
	}
}

func TestFromQueryErrors(t *testing.T) {
	tests := []struct{ query, field string }{
		{"gpus=999", "gpus"},
		{"gpus=0", "gpus"},
		{"size=lots", "size"},
		{"bw=1GB", "bw"},
		{"colour=red", "colour"},
		{"gpus=4&gpus=8", "gpus"},
		{"algo=<script>", "algo (collective.algorithm)"},
		{"proto=ll256", "proto (collective.protocol)"},
		{"bw=1MB/s&lat=2s", "lat (link.latency)"},
	}
	for _, tc := range tests {
		q, _ := url.ParseQuery(tc.query)
		_, err := scenario.FromQuery(q)
		var fe *scenario.FieldError
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("scenario.FromQuery(%q) = %v, want a scenario.FieldError naming %q", tc.query, err, tc.field)
		}
	}
	q, _ := url.ParseQuery("speed=4&autoplay=1&t=3ms")
	if _, err := scenario.FromQuery(q); err != nil {
		t.Errorf("view parameters rejected: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	long, _ := filepath.Glob("testdata/long/*.yaml") // recovery and failures sections
	for _, file := range append(files, long...) {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Add([]byte("gpus: 4\n"))
	f.Add([]byte("a: &x [*x]\n"))
	f.Add([]byte("gpus: 4\n---\ngpus: 8\n"))
	f.Add([]byte("model: {preset: llama3-8b}\ntraining: {tokens: 15T}\ncost: {gpu_hour: 3, pue: 1.2, grid_kg_per_kwh: 0.3}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := scenario.Parse(data)
		if err == nil {
			if verr := s.Validate(); verr != nil {
				t.Errorf("scenario.Parse accepted an invalid scenario: %v", verr)
			}
		}
	})
}

func FuzzFromQuery(f *testing.F) {
	for _, q := range []string{"gpus=8&size=64KiB", "bw=1GB/s&lat=1us", "x=1", "gpus=%zz", "seed=1&seed=2",
		"strategy=rlhf&gpus=8&placement=disaggregated&gen_gpus=2&eta=1&queue=3",
		"strategy=split-learning&clients=8&hops=4&client_speeds=1,1,1,1,1,1,1,0.25",
		"strategy=split-learning&split_mode=fedavg&local_steps=3&uplink=1Mbps&speed_cv=0.5",
		"proto=ll128&algo=auto", "proto=auto&gpus=8", "proto=Simple",
		"model=deepseek-v3&gpu=h800&nodes=2&gpus_per_node=8&dp=16&ep=16&etp=1&skew=zipf&zipf_s=1.2&hot_experts=2&capacity_factor=1.25&redundant=16",
		"model=mixtral-8x7b&gpu=h100-sxm&nodes=1&gpus_per_node=8&dp=8&ep=4&histogram=4,1,1,1,1,1,1,1&experts=8&top_k=2&shared_experts=1&dense_layers=1&router=group-limited&groups=4&top_groups=2",
		"model=llama3-8b&attention=mla&kv_lora_rank=512&q_lora_rank=0&rope_head_dim=64&nope_head_dim=128&v_head_dim=128&mtp=1&skew=lognormal&routing_cv=0.5&expert_ffn_hidden=1024",
		"model=mixtral-8x7b&gpu=h100-sxm&nodes=2&gpus_per_node=4&dp=8&ep=8&moe_overlap=two-microbatch&micro_batch_size=2&network=fat-tree&oversubscription=4",
		"model=gpt3-1.3b&gpu=h100-sxm&nodes=4&gpus_per_node=1&dp=4&sdp=0.5&sdp_masking=forward&sdp_level=neuron&sdp_assignment=disjoint",
		"model=llama3-8b&gpu=h100-sxm&tokens=15T&gpu_hour=2.5&pue=1.1&grid=0.2", "tokens=1.5e13&strategy=training&model=llama3-8b",
		"model=llama3-8b&tokens=-1T&pue=0.9&grid=3", "gpus=4&pue=1.2"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		s, err := scenario.FromQuery(q)
		if err != nil {
			return
		}
		if verr := s.Validate(); verr != nil {
			t.Errorf("scenario.FromQuery(%q) accepted an invalid scenario: %v", raw, verr)
		}
		back, err := scenario.FromQuery(s.Query())
		if err != nil || !reflect.DeepEqual(back, s) {
			t.Errorf("round trip of %q: got %+v, %v; want %+v", raw, back, err, s)
		}
	})
}

func TestTrainingPlanErrors(t *testing.T) {
	base := "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\n"
	tests := []struct{ yaml, want string }{
		{"parallel: {dp: 4, tp: 8}\n", "dp·tp·pp·cp = 32 but the cluster has 16 GPUs"},
		{"parallel: {dp: 1, tp: 8, pp: 2, schedule: interleaved, virtual_stages: 2, microbatches: 3}\n", "parallel.schedule"},
		{"parallel: {dp: 2, tp: 8, ep: 3}\n", "ep = 3 must divide dp = 2"},
		{"parallel: {dp: 2, tp: 8, zero: 4}\n", "parallel.zero"},
		{"parallel: {dp: 2, tp: 8, recompute: most}\n", "parallel.recompute"},
		{"parallel: {dp: 2, tp: 8, schedule: zigzag}\n", "parallel.schedule"},
		{"parallel: {dp: 2, tp: 8, microbatches: 0}\n", "parallel.microbatches"},
		{"parallel: {dp: 2, tp: 8}\ntraining: {precision: fp4}\n", "training.precision"},
		{"parallel: {dp: 2, tp: 8, ep: 2}\n", "parallel.ep: is 2 but model llama3-8b has no experts (a dense model); allowed 1"},
	}
	for _, tc := range tests {
		_, err := scenario.Parse([]byte(base + tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.yaml, err, tc.want)
		}
	}
	// Mixtral has 8 experts: ep 16 or 32 would leave ranks without one.
	moe := "model: {preset: mixtral-8x7b}\n"
	c32 := "cluster: {gpu: h100-sxm, nodes: 4, gpus_per_node: 8}\n"
	for _, tc := range []struct{ yaml, want string }{
		{c32 + "parallel: {dp: 16, tp: 2, ep: 16}\n", "parallel.ep: is 16 but model mixtral-8x7b has 8 experts; allowed 1..8"},
		{c32 + "parallel: {dp: 32, ep: 32}\n", "parallel.ep: is 32 but model mixtral-8x7b has 8 experts; allowed 1..8"},
		{"parallel: {dp: 6, tp: 1, pp: 1, ep: 3}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 6}\n", "does not divide model mixtral-8x7b's 8 experts"},
	} {
		_, err := scenario.Parse([]byte(moe + tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.yaml, err, tc.want)
		}
	}
	if _, err := scenario.Parse([]byte(moe + c32 + "parallel: {dp: 8, tp: 4, ep: 8}\n")); err != nil {
		t.Errorf("mixtral with ep 8 (one expert per rank): %v, want it accepted", err)
	}
	for _, yaml := range []string{"model: {preset: gpt5}\nparallel: {dp: 2, tp: 8}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\n"} {
		if _, err := scenario.Parse([]byte(yaml)); err == nil || !strings.Contains(err.Error(), "model") {
			t.Errorf("%q: error %v, want one naming the model", yaml, err)
		}
	}
	s, err := scenario.Parse([]byte(base + "parallel: {dp: 1, tp: 16}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0], "tp = 16 exceeds gpus_per_node = 8") {
		t.Errorf("warnings %v, want the tp-across-nodes one", w)
	}
	if s.Strategy != training.Name {
		t.Errorf("strategy %q, want training inferred from the model key", s.Strategy)
	}
}

func TestTrainingQueryRoundTrip(t *testing.T) {
	q, _ := url.ParseQuery("model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=4&pp=2&schedule=interleaved&virtual_stages=2&microbatches=16&zero=1&sequence_parallel=true&recompute=selective")
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	if s.Strategy != training.Name || s.Parallel.TP != 4 || !s.Parallel.SequenceParallel {
		t.Errorf("decoded %+v", s.Parallel)
	}
	back, err := scenario.FromQuery(s.Query())
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}

// TestSplitValidateNamesFields: every bad split key is reported under its
// own name, with what it allows.
func TestSplitValidateNamesFields(t *testing.T) {
	for _, tc := range []struct{ yaml, field, want string }{
		{"split: {clients: 0}", "split.clients", "allowed 1..512"},
		{"split: {hops: 40}", "split.hops", "allowed 1..16"},
		{"split: {cut: 17}", "split.cut", "allowed 1..16"},
		{"split: {device: pager}", "split.device", "raspberry-pi-5"},
		{"split: {model: resnet}", "split.model", "vgg19-cifar"},
		{"split: {compute_gpu: abacus}", "split.compute_gpu", "t4"},
		{"split: {mode: gossip}", "split.mode", "split, fedavg"},
		{"split: {uplink: 1B/s}", "split.uplink", "allowed"},
		{"split: {speeds: '1,2'}", "split.speeds", "one per client"},
		{"split: {speed_cv: 3}", "split.speed_cv", "allowed 0..2"},
		{"split: {mode: fedavg, hops: 2}", "split.hops", "one aggregator"},
		{"cluster: {gpu: h100-sxm}", "cluster.gpu", "split section"},
	} {
		_, err := scenario.Parse([]byte("strategy: split-learning\n" + tc.yaml + "\n"))
		var fe *scenario.FieldError
		found := false
		for _, e := range scenario.Problems(err) {
			if errors.As(e, &fe) && fe.Field == tc.field && strings.Contains(fe.Msg, tc.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: error %v, want one naming %s with %q", tc.yaml, err, tc.field, tc.want)
		}
	}
}

func TestParseRefusesASecondDocument(t *testing.T) {
	tests := []struct {
		name, file string
		want       string // "" for accepted
	}{
		{"one document", "gpus: 4\n", ""},
		{"leading separator", "---\ngpus: 4\n", ""},
		{"document end marker", "gpus: 4\n...\n", ""},
		{"empty file", "", ""},
		{"two documents", "gpus: 4\n---\ngpus: 8\n", "line 3: a second YAML document"},
		{"second after comments", "gpus: 4\n# more\n---\n# the other\nseed: 2\n", "line 5: a second YAML document"},
		{"second is not YAML", "gpus: 4\n---\n[a\n", "after the first document"},
		{"trailing separator", "gpus: 4\n---\n", ""},
		{"empty then full", "gpus: 4\n---\n---\nseed: 3\n", "line 4: a second YAML document"},
	}
	for _, tt := range tests {
		s, err := scenario.Parse([]byte(tt.file))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: scenario.Parse(%q) = %v, want no error", tt.name, tt.file, err)
		case tt.want == "" && s.GPUs != 4 && tt.file != "":
			t.Errorf("%s: gpus %d, want 4", tt.name, s.GPUs)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: scenario.Parse(%q) = %v, want an error containing %q", tt.name, tt.file, err, tt.want)
		}
	}
}

// A title names the model as run: a preset whose shape a key changes
// says which keys changed it, and one GPU is "1 GPU".
func TestTitlesDescribeTheModelAsRun(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 8}\n",
			"llama3-8b on 8 GPUs (dp 8, tp 1, pp 1)"},
		{"model: {preset: llama3-8b, layers: 16}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 8}\n",
			"llama3-8b (modified: layers 16) on 8 GPUs (dp 8, tp 1, pp 1)"},
		{"model: {preset: llama3-8b, layers: 16, hidden: 2048, seq_len: 2048}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 1}\n",
			"llama3-8b (modified: layers 16, hidden 2048, seq_len 2048) on 1 GPU (dp 1, tp 1, pp 1)"},
		// The preset's own value changes nothing.
		{"model: {preset: llama3-8b, layers: 32}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 1}\n",
			"llama3-8b on 1 GPU (dp 1, tp 1, pp 1)"},
		{"strategy: inference\ngpus: 1\ncluster: {gpu: h100-sxm}\nmodel: {preset: llama3-8b, layers: 8}\nparallel: {dp: 1}\n",
			"Serving llama3-8b (modified: layers 8) on 1 GPU (dp 1, tp 1, pp 1)"},
		{"strategy: data-parallel\ngpus: 1\n", "Data parallelism on 1 GPU"},
	}
	for _, tc := range tests {
		s, err := scenario.Parse([]byte(tc.yaml))
		if err != nil {
			t.Fatalf("%q: %v", tc.yaml, err)
		}
		if got := s.Title(); got != tc.want {
			t.Errorf("%q: title %q, want %q", tc.yaml, got, tc.want)
		}
	}
}
