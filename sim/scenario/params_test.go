package scenario

import (
	"reflect"
	"testing"
)

func TestParamsFollowTheTable(t *testing.T) {
	ps := Params()
	if len(ps) != len(fields) {
		t.Fatalf("Params() has %d entries, the table %d", len(ps), len(fields))
	}
	s := Default()
	vals := s.Values()
	for _, p := range ps {
		if _, ok := vals[p.Name]; !ok {
			t.Errorf("Values() lacks %s", p.Name)
		}
	}
	got, err := FromQuery(vals)
	if err != nil {
		t.Fatalf("FromQuery(Default().Values()) = %v", err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("FromQuery(Values()) = %+v, want %+v", got, s)
	}
}
