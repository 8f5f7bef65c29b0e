package playground

import (
	"net/url"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

func TestPlanConfig(t *testing.T) {
	q, _ := url.ParseQuery("model=llama3-8b&seq_len=2048&gpu=h100-sxm&nodes=2&gpus_per_node=4&dp=4&tp=2&microbatches=2&micro_batch_size=2")
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := PlanConfig(s)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GlobalBatch != 16 || cfg.GPUs() != 8 || cfg.Model.SeqLen != 2048 {
		t.Errorf("config %+v; want 16 sequences on 8 GPUs of 2,048 tokens", cfg)
	}
	for _, bad := range []string{"gpus=4", "gpus=4&network=ideal&tf=1ms&pp=4&microbatches=8", "model=llama3-8b&gpus=8&dp=8"} {
		q, _ := url.ParseQuery(bad)
		s, _ := scenario.FromQuery(q)
		if _, err := PlanConfig(s); err == nil || !strings.HasPrefix(err.Error(), "plan:") {
			t.Errorf("%s: error %v; want one saying what the plan tab needs", bad, err)
		}
	}
}
