package timeline

import (
	"math"
	"testing"

	"paraplay/sim/units"
)

// waitsRun is a hand-made training step on two GPUs: GPU 0 blocks on a
// tensor-parallel all-reduce, then both wait for the gradient all-reduce
// (dp, 2.5–4 µs) and a ZeRO gather (3.5–4.5 µs) after their backward.
func waitsRun() *Timeline {
	return &Timeline{
		Title: "waits", Fidelity: "detailed",
		GPUs: []GPU{{ID: 0, Name: "GPU 0"}, {ID: 1, Name: "GPU 1"}},
		Spans: []Span{
			{GPU: 0, Kind: Forward, Start: 0, End: 1000},
			{GPU: 1, Kind: Forward, Start: 0, End: 2000},
			{GPU: 0, Kind: TPComm, Start: 1000, End: 1500},
			{GPU: 0, Kind: Backward, Start: 1500, End: 3000},
			{GPU: 1, Kind: Backward, Start: 2000, End: 3000},
		},
		Transfers: TransfersOf([]Transfer{
			{Src: 0, Dst: 1, Collective: 0, Start: 2500, End: 4000},
			{Src: 1, Dst: 0, Collective: 1, Start: 3500, End: 4500},
		}...),
		Collectives: []Collective{
			{Name: "all-reduce", Purpose: "dp", GPUs: []int{0, 1}, Start: 2500, End: 4000},
			{Name: "all-gather", Purpose: "zero", GPUs: []int{0, 1}, Start: 3500, End: 4500},
		},
		Training: &Training{Schedule: "1f1b"},
		End:      4500,
	}
}

// The exposed communication, by hand: GPU 0 blocks 500 ns on tp, then
// idles 3000–4500 with dp alone in flight for 500 ns, dp and zero for
// 500 ns (250 each), zero alone for 500 ns: tp 500, dp 750, zero 750,
// 2000 in all. GPU 1 has the same waits without the tp: 1500. The means
// are tp 250, dp 750, zero 750, which add up to the headline's 1750 ns.
// (The old headline, communication while no GPU computed, said 1500.)
func TestExposedCommunicationKindsAddUp(t *testing.T) {
	s := waitsRun().Summarize()
	if s.ExposedCommunication != 1750 {
		t.Errorf("exposed communication %v, want 1.75µs", s.ExposedCommunication)
	}
	want := map[string]float64{"tp": 250e-9, "dp": 750e-9, "zero": 750e-9}
	var sum float64
	for k, v := range s.ExposedBy {
		sum += v
		if math.Abs(v-want[k]) > 1e-15 {
			t.Errorf("exposed %s %g s, want %g s", k, v, want[k])
		}
	}
	if len(s.ExposedBy) != len(want) {
		t.Errorf("kinds %v, want %v", s.ExposedBy, want)
	}
	if got := units.Round(sum); got != s.ExposedCommunication {
		t.Errorf("kinds sum to %v, headline %v: want them equal", got, s.ExposedCommunication)
	}
	if s.BubbleFraction != 0 {
		t.Errorf("bubble %g without a pipeline, want 0: the waits are exposed communication", s.BubbleFraction)
	}
}

// A two-stage pipeline by hand: stage 0 computes F 0–1 µs and, after the
// gradient comes back (3.0–3.2 µs), B 3.2–4.2 µs; stage 1 receives the
// activation (1.0–1.2 µs) and computes F and B 1.2–3.0 µs. GPU 0's window
// of 4.2 µs holds 2 µs of compute and 0.4 µs of waiting on the two
// messages (exposed pp communication), so its bubble is 1.8/4.2 = 3/7;
// stage 1 has none. The messages count once, as pp communication.
func TestBubbleLeavesOutCommunicationWaits(t *testing.T) {
	tl := &Timeline{
		GPUs: []GPU{{ID: 0, Name: "GPU 0"}, {ID: 1, Name: "GPU 1"}},
		Spans: []Span{
			{GPU: 0, Kind: Forward, Start: 0, End: 1000},
			{GPU: 1, Kind: Forward, Stage: 1, Start: 1200, End: 2200},
			{GPU: 1, Kind: Backward, Stage: 1, Start: 2200, End: 3000},
			{GPU: 0, Kind: Backward, Start: 3200, End: 4200},
		},
		Transfers: TransfersOf([]Transfer{
			{Src: 0, Dst: 1, Collective: -1, Start: 1000, End: 1200},
			{Src: 1, Dst: 0, Collective: -1, Start: 3000, End: 3200},
		}...),
		Training: &Training{Schedule: "1f1b"},
		End:      4200,
	}
	s := tl.Summarize()
	if want := 3.0 / 7; math.Abs(s.BubbleFraction-want) > 1e-12 {
		t.Errorf("bubble %g, want 3/7 = %g", s.BubbleFraction, want)
	}
	if got := tl.BubbleFraction(); got != s.BubbleFraction {
		t.Errorf("BubbleFraction() %g, Summarize's %g: want the same", got, s.BubbleFraction)
	}
	// Each GPU idles through both messages, sending one and receiving the
	// other: 400 ns each (GPU 1's second wait is after its window).
	if s.ExposedCommunication != 400 || math.Abs(s.ExposedBy["pp"]-400e-9) > 1e-15 {
		t.Errorf("exposed %v, pp %g s; want 400ns and 4e-07 s", s.ExposedCommunication, s.ExposedBy["pp"])
	}
}

// Inside one collective operation a GPU waits between its steps: GPU 0
// of a two-step exchange sends 0–100 ns and receives 300–400 ns, so it
// waits 400 ns, not 200 (as a profiler shows a rank inside the kernel
// for the whole operation). GPU 1 relays: it receives 0–100 ns, and its
// send onward runs 300–400 ns. A parameter server's push-pull channel
// counts only its messages.
func TestExposedFillsTheGapsOfAnOperation(t *testing.T) {
	tl := &Timeline{
		GPUs: []GPU{{ID: 0, Name: "GPU 0"}, {ID: 1, Name: "GPU 1"}},
		Transfers: TransfersOf([]Transfer{
			{Src: 0, Dst: 1, Collective: 0, Start: 0, End: 100},
			{Src: 1, Dst: 0, Collective: 0, Start: 300, End: 400},
		}...),
		Collectives: []Collective{{Name: "all-reduce", GPUs: []int{0, 1}, Start: 0, End: 400}},
		End:         400,
	}
	if got := tl.Summarize().ExposedCommunication; got != 400 {
		t.Errorf("exposed %v inside one all-reduce, want 400ns (first message to last)", got)
	}
	tl.Collectives[0].Name = "push_pull"
	if got := tl.Summarize().ExposedCommunication; got != 200 {
		t.Errorf("exposed %v over a push-pull channel, want 200ns (its messages only)", got)
	}
}
