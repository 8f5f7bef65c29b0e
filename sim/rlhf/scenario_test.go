package rlhf_test

import (
	"errors"
	"net/url"
	"paraplay/sim/rlhf"
	_ "paraplay/sim/run"
	"paraplay/sim/scenario"
	"reflect"
	"strings"
	"testing"
)

func TestRLHFErrorsNameTheKey(t *testing.T) {
	base := "strategy: rlhf\ngpus: 8\n"
	tests := []struct{ yaml, field string }{
		{"rlhf: {placement: everywhere}\n", "rlhf.placement"},
		{"rlhf: {placement: disaggregated, gen_gpus: 8}\n", "rlhf.gen_gpus"},
		{"rlhf: {placement: disaggregated, gen_gpus: 3, gen_tp: 2}\n", "rlhf.gen_tp"},
		{"rlhf: {actor: gpt5}\n", "rlhf.actor"},
		{"rlhf: {gen_gpu: tpu, placement: interleaved}\n", "rlhf.gen_gpu"},
		{"rlhf: {placement: disaggregated, staleness: 0, sync_every: 3}\n", "rlhf.staleness"},
		{"rlhf: {queue: -2}\n", "rlhf.queue"},
		{"rlhf: {train_price: -1}\n", "rlhf.train_price"},
		{"rlhf: {prompts: 0}\n", "rlhf.prompts"},
		{"iterations: 65\n", "iterations"},
	}
	for _, tc := range tests {
		_, err := scenario.Parse([]byte(base + tc.yaml))
		var fe *scenario.FieldError
		found := false
		for _, e := range scenario.Problems(err) {
			if errors.As(e, &fe) && fe.Field == tc.field {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: want an error naming %s, got %v", tc.yaml, tc.field, err)
		}
	}
}

func TestRLHFQueryRoundTrip(t *testing.T) {
	q, _ := url.ParseQuery("strategy=rlhf&gpus=8&placement=disaggregated&gen_gpus=2&gen_gpu=h20&queue=4&eta=1&critic=none&sync_bw=25GB/s")
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	if r := rlhf.SettingsOf(&s); r.Critic != rlhf.NoCritic || r.Queue != 4 || r.Staleness != 1 {
		t.Errorf("got %+v", r)
	}
	back, err := scenario.FromQuery(s.Query())
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Errorf("round trip: got %+v, %v; want %+v", back, err, s)
	}
	if d := s.Describe(); !strings.Contains(d, "2× h20 + 6× h100-sxm") || !strings.Contains(d, "η = 1") {
		t.Errorf("Describe = %q", d)
	}
}
