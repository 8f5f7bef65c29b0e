package splitlearn

import (
	"errors"
	"testing"
)

// FuzzSimulate runs arbitrary small configurations: each is either
// rejected by Validate with a *FieldError, or runs to a timeline that
// passes timeline.Validate (Simulate checks it) with one round record per
// round, each ending when its slowest client does.
func FuzzSimulate(f *testing.F) {
	f.Add(uint8(4), uint8(1), uint8(2), uint8(16), uint8(1), false, 1.0)
	f.Add(uint8(3), uint8(4), uint8(5), uint8(1), uint8(2), false, 0.3)
	f.Add(uint8(2), uint8(1), uint8(0), uint8(8), uint8(3), true, 2.0)
	f.Add(uint8(0), uint8(17), uint8(20), uint8(0), uint8(0), false, -1.0)
	f.Fuzz(func(t *testing.T, clients, hops, cut, batch, rounds uint8, fedavg bool, speed float64) {
		mode := ModeSplit
		if fedavg {
			mode = ModeFedAvg
		}
		c := config(t, mode, int(clients%40), int(hops))
		c.Cut, c.Batch, c.Rounds = int(cut), int(batch), int(rounds%5)
		if len(c.Devices) > 0 {
			c.Speeds = make([]float64, len(c.Devices))
			for i := range c.Speeds {
				c.Speeds[i] = 1
			}
			c.Speeds[0] = speed
		}
		tl, err := Simulate(c)
		if err != nil {
			var fe *FieldError
			for _, e := range flatten(err) {
				if !errors.As(e, &fe) {
					t.Fatalf("error %v is no FieldError", e)
				}
			}
			return
		}
		if len(tl.Split.Rounds) != c.Rounds {
			t.Fatalf("%d rounds recorded, want %d", len(tl.Split.Rounds), c.Rounds)
		}
		if last := tl.Split.Rounds[c.Rounds-1].End; last != tl.End {
			t.Errorf("the last round ends at %v, the run at %v", last, tl.End)
		}
	})
}
