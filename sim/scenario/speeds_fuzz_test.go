package scenario_test

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	_ "paraplay/sim/run"
	"paraplay/sim/scenario"
)

// FuzzSpeeds feeds speed lists to the two parameters that read them, a
// parameter server's speeds= and split learning's client_speeds=: no
// panic; a refusal names the parameter; an accepted list has one factor
// per worker, each within MinSpeed..MaxSpeed, and survives the address
// bar's round trip (Query, then FromQuery) unchanged.
func FuzzSpeeds(f *testing.F) {
	for _, s := range []string{"1,1,0.5,0.25", "", " 1 , 2 ,3,4", "1,,1,1", "NaN,1,1,1", "1e309,1,1,1", "0x1p-2,1,1,1",
		"1,1,1,1,1,1,1,0.25", strings.Repeat("1,", 70000) + "1", "-1,1,1,1", "100,0.01,1,1"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, list string, split bool) {
		param, base := "speeds", "strategy=parameter-server&gpus=4"
		if split {
			param, base = "client_speeds", "strategy=split-learning&clients=8"
		}
		q, _ := url.ParseQuery(base)
		q.Set(param, list)
		s, err := scenario.FromQuery(q)
		if err != nil {
			var fe *scenario.FieldError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), param) {
				t.Fatalf("%s=%q: refused without naming %s: %v", param, list, param, err)
			}
			return
		}
		if !split {
			if n := len(s.Sync.Speeds); n != 0 && n != 4 {
				t.Fatalf("speeds=%q: accepted %d factors for 4 workers", list, n)
			}
			for i, v := range s.Sync.Speeds {
				if !(v >= scenario.MinSpeed && v <= scenario.MaxSpeed) {
					t.Fatalf("speeds=%q: accepted worker %d's speed %v", list, i, v)
				}
			}
		}
		back, err := scenario.FromQuery(s.Query())
		if err != nil {
			t.Fatalf("%s=%q: its own address %q is refused: %v", param, list, s.Query().Encode(), err)
		}
		if !slices.Equal(back.Sync.Speeds, s.Sync.Speeds) || back.Query().Encode() != s.Query().Encode() {
			t.Fatalf("%s=%q: the round trip changed %q to %q", param, list, s.Query().Encode(), back.Query().Encode())
		}
	})
}
