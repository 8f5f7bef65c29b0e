package scenario_test

import (
	_ "paraplay/sim/run"
	"paraplay/sim/scenario"
	"reflect"
	"testing"
)

func TestParamsFollowTheTable(t *testing.T) {
	ps := scenario.Params()
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.Name] || seen[p.Key] {
			t.Errorf("Params() repeats %s (%s)", p.Name, p.Key)
		}
		seen[p.Name], seen[p.Key] = true, true
	}
	if len(ps) < 100 {
		t.Fatalf("scenario.Params() has %d entries; the shared keys and the built-in strategies' sections make more", len(ps))
	}
	s := scenario.Default()
	vals := s.Values()
	for _, p := range ps {
		if _, ok := vals[p.Name]; !ok {
			t.Errorf("Values() lacks %s", p.Name)
		}
	}
	got, err := scenario.FromQuery(vals)
	if err != nil {
		t.Fatalf("scenario.FromQuery(scenario.Default().Values()) = %v", err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("scenario.FromQuery(Values()) = %+v, want %+v", got, s)
	}
}
