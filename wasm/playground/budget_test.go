package playground

import (
	"net/url"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// TestBudgetRefusesByName: the links of issue 19's audit that froze or
// crashed the tab are refused before they run, naming the field.
func TestBudgetRefusesByName(t *testing.T) {
	long := "model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=8&strategy=training"
	for _, c := range []struct{ query, field string }{
		{long + "&fail_duration=365d&ckpt_interval=1us", "recovery.checkpoint_interval"},
		{"model=llama3-8b&gpu=h100-sxm&nodes=512&gpus_per_node=8&dp=512&tp=8&strategy=training&fail_duration=365d&fail_rate=100", "failures.rate_per_node_day"},
		{"gpu=h100-sxm&nodes=64&gpus_per_node=8&chunks=64", "collective.chunks"},
		{"model=llama3-8b&gpu=h100-sxm&nodes=1&gpus_per_node=8&tp=2&pp=4&microbatches=4096&iterations=64&strategy=training", "fidelity"},
	} {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.FromQuery(q)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if err := CheckBudget(s); err == nil || !strings.HasPrefix(err.Error(), c.field+": ") {
			t.Errorf("%s: got %v, want a refusal of %s", c.query, err, c.field)
		}
	}
	if err := CheckBudget(scenario.Default()); err != nil {
		t.Errorf("the default scenario: %v", err)
	}
}

// TestPresetsFitTheBudget: every lesson button's scenario passes the
// browser's budget.
func TestPresetsFitTheBudget(t *testing.T) {
	for _, p := range Presets {
		q, err := url.ParseQuery(p.Query)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.FromQuery(q)
		if err != nil {
			continue // the presets' own test reports it
		}
		if err := CheckBudget(s); err != nil {
			t.Errorf("%s: %v", p.Label, err)
		}
	}
}
