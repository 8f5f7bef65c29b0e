package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"paraplay/sim/units"
)

// TestEveryScheduleValidates builds every name over a range of sizes.
func TestEveryScheduleValidates(t *testing.T) {
	for _, name := range Names() {
		for p := 1; p <= 9; p++ {
			for m := 1; m <= 20; m++ {
				for _, v := range []int{0, 3} {
					s, err := New(name, p, m, v)
					if err != nil {
						continue
					}
					if err := s.Validate(); err != nil {
						t.Errorf("New(%q, %d, %d, %d): %v", name, p, m, v, err)
					}
				}
			}
		}
	}
}

// TestOneFOneBPeakPerStage: stage i holds min(p−i, m) microbatches.
func TestOneFOneBPeakPerStage(t *testing.T) {
	for p := 1; p <= 16; p++ {
		for m := 1; m <= 24; m++ {
			r := Execute(OneFOneB(p, m), closedTimes[1])
			for i, got := range r.PeakChunks {
				if want := min(p-i, m); got != want {
					t.Errorf("p=%d m=%d stage %d: peak got %d, want %d", p, m, i, got, want)
				}
			}
		}
	}
}

// TestInterleavedPeakStageEquivalents: p(1 + (p−1)/(p·v)) on device 0.
func TestInterleavedPeakStageEquivalents(t *testing.T) {
	for _, c := range []struct{ p, m, v int }{{4, 8, 2}, {4, 16, 4}, {8, 16, 2}, {16, 64, 4}} {
		s, err := Interleaved(c.p, c.m, c.v)
		if err != nil {
			t.Fatal(err)
		}
		got := Execute(s, Times{F: 1, B: 1, W: 1}).PeakInFlight[0]
		p, v := float64(c.p), float64(c.v)
		if want := p * (1 + (p-1)/(p*v)); got != want {
			t.Errorf("p=%d m=%d v=%d: got %v stage-equivalents, want %v", c.p, c.m, c.v, got, want)
		}
	}
}

// TestPipeDreamAsync: no flush, so the figure of merit is the steady-state
// time per microbatch, T_F+T_B+T_W; device d stashes p−d weight versions.
func TestPipeDreamAsync(t *testing.T) {
	for p := 1; p <= 16; p++ {
		for _, m := range []int{2, p, 4 * p} {
			for _, tt := range closedTimes {
				s := PipeDreamAsync(p, m)
				r := Execute(s, tt)
				if got, want := r.PerMicrobatch, tt.F+tt.B+tt.W; m >= max(p, 2) && got != want {
					t.Errorf("p=%d m=%d %+v: per microbatch got %v, want %v", p, m, tt, got, want)
				}
				if got, want := s.WeightVersions[0], p; got != want {
					t.Errorf("p=%d: device 0 stashes %d versions, want %d", p, got, want)
				}
				if got, want := s.WeightVersions[p-1], 1; got != want {
					t.Errorf("p=%d: last device stashes %d versions, want %d", p, got, want)
				}
			}
		}
	}
}

// TestNewErrors: the errors name the rule or list the allowed names.
func TestNewErrors(t *testing.T) {
	cases := []struct {
		name    string
		p, m, v int
		want    string
	}{
		{"pipedream", 4, 8, 0, `unknown schedule "pipedream"; schedules (and their rules): gpipe (v = 1), 1f1b`},
		{"interleaved", 4, 6, 2, "m = 6 microbatches is not a multiple of p = 4"},
		{"gpipe", 4, 8, 2, "gpipe runs 1 chunk(s) per device, not v = 2"},
		{"dualpipev", 4, 7, 0, "m = 7 microbatches is fewer than 2p = 8"},
		{"zb-v", 4, 8, 3, "zb-v runs 2 chunk(s) per device, not v = 3"},
		{"1f1b", 0, 8, 0, "need p ≥ 1"},
		{"1f1b", 1 << 11, 1 << 11, 0, "is more than"},
	}
	for _, c := range cases {
		_, err := New(c.name, c.p, c.m, c.v)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%q, %d, %d, %d) got %v, want an error containing %q", c.name, c.p, c.m, c.v, err, c.want)
		}
	}
}

// TestLayouts: interleaved puts stage k on device k mod p; the V schedules
// go down on chunk 0 and back up on chunk 1.
func TestLayouts(t *testing.T) {
	s, _ := Interleaved(3, 3, 2)
	if got, want := fmt.Sprint(s.Layout), "[{0 0} {1 0} {2 0} {0 1} {1 1} {2 1}]"; got != want {
		t.Errorf("interleaved layout got %s, want %s", got, want)
	}
	s, _ = DualPipeV(3, 6)
	if got, want := fmt.Sprint(s.Layout), "[{0 0} {1 0} {2 0} {2 1} {1 1} {0 1}]"; got != want {
		t.Errorf("V layout got %s, want %s", got, want)
	}
}

// FuzzNew: New never panics, and whatever it returns validates and runs.
func FuzzNew(f *testing.F) {
	for _, name := range Names() {
		f.Add(name, 4, 8, 0)
	}
	f.Add("interleaved", 3, 9, 4)
	f.Add("zb-h2", 1, 1, 1)
	f.Fuzz(func(t *testing.T, name string, p, m, v int) {
		if p > 64 || m > 256 || v > 8 {
			return // keep each run fast; New's own limit is tested above
		}
		s, err := New(name, p, m, v)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("New(%q, %d, %d, %d) does not validate: %v", name, p, m, v, err)
		}
		r := Execute(s, Times{F: 3, B: 5, W: 2})
		if r.Makespan <= 0 || len(r.Spans) != p {
			t.Fatalf("New(%q, %d, %d, %d): makespan %v over %d devices", name, p, m, v, r.Makespan, len(r.Spans))
		}
	})
}

// ExampleNew builds 1F1B for 3 devices and 4 microbatches and runs it with
// T_F = T_B = T_W = 1 ms.
func ExampleNew() {
	s, err := New("1f1b", 3, 4, 0)
	if err != nil {
		panic(err)
	}
	r := Execute(s, Times{F: units.Millisecond, B: units.Millisecond, W: units.Millisecond})
	fmt.Println("makespan", r.Makespan, "bubble", r.Bubble, "peak", r.PeakInFlight)
	fmt.Print(Grid(s))
	// Output:
	// makespan 18ms bubble 6ms peak [3 2 1]
	// 1f1b p=3 m=4 v=1: makespan 18, bubble 6, peak in-flight 3 2 1
	//   0 | F0 F1 F2 .  .  .  .  B0 -- F3 B1 -- .  B2 -- .  B3 --
	//   1 | .  F0 F1 .  .  B0 -- F2 B1 -- F3 B2 -- .  B3 -- .  .
	//   2 | .  .  F0 B0 -- F1 B1 -- F2 B2 -- F3 B3 -- .  .  .  .
}

func BenchmarkExecute(b *testing.B) {
	s, err := Interleaved(16, 64, 4)
	if err != nil {
		b.Fatal(err)
	}
	t := Times{F: units.Millisecond, B: 2 * units.Millisecond, W: units.Millisecond}
	b.ReportAllocs()
	for b.Loop() {
		Execute(s, t)
	}
}

// TestRetime: hetero-1f1b with extra warm-up forwards keeps every op once
// and starts device d with min(p−d−1+extra[d], m) forwards, no more than
// the device before it (the count below also sees the first steady-state
// forward).
func TestRetime(t *testing.T) {
	s, err := New("hetero-1f1b", 4, 8, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.Retime([]int{2, 1, 0, 9})
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for d, want := range []int{6, 4, 2, 2} {
		got := 0
		for _, op := range s.Order[d] {
			if op.Kind != F {
				break
			}
			got++
		}
		if got != want {
			t.Errorf("device %d: %d warm-up forwards, want %d", d, got, want)
		}
	}
}

// TestRetimeFewMicrobatches: with fewer microbatches than stages every
// device warms up with all of them, and the order still plays.
func TestRetimeFewMicrobatches(t *testing.T) {
	for m := 1; m <= 4; m++ {
		s, err := New("hetero-1f1b", 4, m, 0)
		if err != nil {
			t.Fatal(err)
		}
		s.Retime([]int{3, 2, 1, 0})
		if err := s.Validate(); err != nil {
			t.Errorf("m = %d: %v", m, err)
		}
		if _, err := run(s, Times{F: 1, B: 2, W: 1}); err != nil {
			t.Errorf("m = %d: %v", m, err)
		}
	}
}
