package pipeline

import (
	"testing"

	"paraplay/sim/units"
)

// Per-op times the closed forms are checked with: equal, and unequal with
// T_W ≤ T_F and 2T_W ≤ T_F+T_B, the conditions of ZB-H1 and ZB-H2.
var closedTimes = []Times{
	{F: units.Millisecond, B: units.Millisecond, W: units.Millisecond},
	{F: units.Millisecond, B: 1500 * units.Microsecond, W: 700 * units.Microsecond},
}

// scale divides per-stage times by v: a chunk holds 1/v of the layers.
func scale(t Times, v int) Times {
	n := units.Time(v)
	return Times{F: t.F / n, B: t.B / n, W: t.W / n}
}

func n(i int) units.Time { return units.Time(i) }

// closedCase is one schedule family and the closed forms it must meet for
// every p ≤ 16, m ≤ 64 its build function accepts.
type closedCase struct {
	name string
	// build returns the schedule and the per-chunk times, or false when
	// the closed forms do not apply to (p, m).
	build func(p, m int, t Times) (Schedule, Times, bool)
	// bubble is the exact bubble, or the bound when exact is false.
	bubble func(p, m int, t Times) units.Time
	exact  bool
	// makespan, if set, is the exact makespan.
	makespan func(p, m int, t Times) units.Time
	// peak0 is device 0's peak, in chunk activations.
	peak0 func(p, m int) int
	// heldW, if set, is device d's peak of B's whose W has not run.
	heldW func(p, m, d int) int
}

func oneChunk(f func(p, m int) Schedule, minM func(p int) int) func(p, m int, t Times) (Schedule, Times, bool) {
	return func(p, m int, t Times) (Schedule, Times, bool) {
		if m < minM(p) {
			return Schedule{}, t, false
		}
		return f(p, m), t, true
	}
}

func withErr(f func(p, m int) (Schedule, error)) func(p, m int, t Times) (Schedule, Times, bool) {
	return func(p, m int, t Times) (Schedule, Times, bool) {
		s, err := f(p, m)
		return s, t, err == nil
	}
}

func interleavedCase(v int) func(p, m int, t Times) (Schedule, Times, bool) {
	return func(p, m int, t Times) (Schedule, Times, bool) {
		s, err := Interleaved(p, m, v)
		return s, scale(t, v), err == nil
	}
}

func full(t Times) units.Time { return t.F + t.B + t.W }

var closedCases = []closedCase{
	{
		name:     "gpipe",
		build:    oneChunk(GPipe, func(int) int { return 1 }),
		bubble:   func(p, m int, t Times) units.Time { return n(p-1) * full(t) },
		exact:    true,
		makespan: func(p, m int, t Times) units.Time { return n(m+p-1) * full(t) },
		peak0:    func(p, m int) int { return m },
	},
	{
		name:     "1f1b",
		build:    oneChunk(OneFOneB, func(int) int { return 1 }),
		bubble:   func(p, m int, t Times) units.Time { return n(p-1) * full(t) },
		exact:    true,
		makespan: func(p, m int, t Times) units.Time { return n(m+p-1) * full(t) },
		peak0:    func(p, m int) int { return min(p, m) },
	},
	{
		// Per-chunk times are the per-stage times / v, so the bubble
		// (p−1)(T_F+T_B+T_W)/v is (p−1) times one chunk's F+B+W.
		name:   "interleaved v=2",
		build:  interleavedCase(2),
		bubble: func(p, m int, t Times) units.Time { return n(p-1) * full(t) },
		exact:  true,
		peak0:  interleavedPeak(2),
	},
	{
		name:   "interleaved v=4",
		build:  interleavedCase(4),
		bubble: func(p, m int, t Times) units.Time { return n(p-1) * full(t) },
		exact:  true,
		peak0:  interleavedPeak(4),
	},
	{
		name:   "zb-h1",
		build:  oneChunk(ZBH1, func(p int) int { return p }),
		bubble: func(p, m int, t Times) units.Time { return n(p-1) * (t.F + t.B - t.W) },
		exact:  true,
		peak0:  func(p, m int) int { return p },
	},
	{
		name:   "zb-h2",
		build:  oneChunk(ZBH2, func(p int) int { return 2 * p }),
		bubble: func(p, m int, t Times) units.Time { return n(p-1) * (t.F + t.B - 2*t.W) },
		exact:  true,
		peak0:  func(p, m int) int { return 2*p - 1 },
	},
	{
		// With unequal times only the DualPipe bound holds; equal times
		// give zero (TestZBVZeroBubble).
		name: "zb-v",
		build: func(p, m int, t Times) (Schedule, Times, bool) {
			s, err := ZBVFor(p, m, t) // searched for the case's own times, as the paper does
			return s, t, err == nil
		},
		bubble: dualPipeBound,
		peak0:  func(p, m int) int { return 2 * p },
	},
	{
		// DeepSeek's (PP/2−1)(F&B + B − 3W) with PP = 2p stages, B the
		// full backward and F&B = F + full backward here.
		name:   "dualpipev",
		build:  withErr(DualPipeV),
		bubble: dualPipeBound,
		peak0:  func(p, m int) int { return 2*p + 1 },
	},
	{
		// 2BP: the W's leave the chain of backwards and run after the
		// device's last B; device 0 starts first, ends last and idles
		// (p−1)(T_F+T_B) (Rae et al. 2024).
		name:     "gpipe-2bp",
		build:    oneChunk(GPipe2BP, func(int) int { return 1 }),
		bubble:   func(p, m int, t Times) units.Time { return n(p-1) * (t.F + t.B) },
		exact:    true,
		makespan: func(p, m int, t Times) units.Time { return n(m+p-1)*(t.F+t.B) + n(m)*t.W },
		peak0:    func(p, m int) int { return m },
		heldW:    func(p, m, d int) int { return m },
	},
	{
		name:     "1f1b-2bp",
		build:    oneChunk(OneFOneB2BP, func(int) int { return 1 }),
		bubble:   func(p, m int, t Times) units.Time { return n(p-1) * (t.F + t.B) },
		exact:    true,
		makespan: func(p, m int, t Times) units.Time { return n(m+p-1)*(t.F+t.B) + n(m)*t.W },
		peak0:    func(p, m int) int { return min(p, m) },
		heldW:    func(p, m, d int) int { return m },
	},
	{
		// ZB-H1 defers device d's W's by d backwards: it holds d+1.
		name:   "zb-h1 held W",
		build:  oneChunk(ZBH1, func(p int) int { return p }),
		bubble: func(p, m int, t Times) units.Time { return n(p-1) * (t.F + t.B - t.W) },
		exact:  true,
		peak0:  func(p, m int) int { return p },
		heldW:  func(p, m, d int) int { return d + 1 },
	},
	{
		// Local losses: no stage waits for a downstream gradient, so each
		// device starts at d·T_F and then never idles.
		name:     "local-loss",
		build:    oneChunk(LocalLoss, func(int) int { return 1 }),
		bubble:   func(p, m int, t Times) units.Time { return 0 },
		exact:    true,
		makespan: func(p, m int, t Times) units.Time { return n(m)*full(t) + n(p-1)*t.F },
		peak0:    func(p, m int) int { return 1 },
	},
}

// dualPipeBound is DeepSeek's (PP/2−1)(F&B + B − 3W) with PP = 2p stages,
// B the full backward and F&B = F + full backward (no overlap here).
func dualPipeBound(p, m int, t Times) units.Time {
	return n(p-1) * ((t.F + t.B + t.W) + (t.B + t.W) - 3*t.W)
}

// interleavedPeak is p(1 + (p−1)/(p·v)) stage-equivalents, p·v + p − 1
// chunks, once m ≥ 2p lets the warm-up run in full; with m = p every
// forward is warm-up and device 0 holds all m·v.
func interleavedPeak(v int) func(p, m int) int {
	return func(p, m int) int { return min(p*v+p-1, m*v) }
}

// TestClosedForms checks every schedule's bubble, makespan and peak
// in-flight activations against the papers' closed forms, in integer
// nanoseconds, for every p ≤ 16 and m ≤ 64 the form applies to.
func TestClosedForms(t *testing.T) {
	for _, c := range closedCases {
		t.Run(c.name, func(t *testing.T) {
			checked, failed := 0, 0
			for p := 1; p <= 16; p++ {
				for m := 1; m <= 64; m++ {
					for _, tt := range closedTimes {
						s, times, ok := c.build(p, m, tt)
						if !ok {
							continue
						}
						checked++
						if !checkClosed(t, c, s, p, m, times) {
							failed++
						}
						if failed > 5 {
							t.Fatal("too many failures")
						}
					}
				}
			}
			if checked == 0 {
				t.Fatal("no (p, m) checked")
			}
		})
	}
}

func checkClosed(t *testing.T, c closedCase, s Schedule, p, m int, times Times) bool {
	t.Helper()
	r := Execute(s, times)
	ok := true
	want := c.bubble(p, m, times)
	if c.exact && r.Bubble != want || !c.exact && r.Bubble > want {
		t.Errorf("p=%d m=%d %+v: bubble got %v, want %s %v", p, m, times, r.Bubble, map[bool]string{true: "=", false: "≤"}[c.exact], want)
		ok = false
	}
	if c.makespan != nil {
		if got, want := r.Makespan, c.makespan(p, m, times); got != want {
			t.Errorf("p=%d m=%d %+v: makespan got %v, want %v", p, m, times, got, want)
			ok = false
		}
	}
	if got, want := r.PeakChunks[0], c.peak0(p, m); got != want {
		t.Errorf("p=%d m=%d: peak on device 0 got %d chunks, want %d", p, m, got, want)
		ok = false
	}
	if c.heldW != nil {
		for d, got := range r.PeakHeldW {
			if want := c.heldW(p, m, d); got != want {
				t.Errorf("p=%d m=%d: device %d holds %d W's inputs at its peak, want %d", p, m, d, got, want)
				ok = false
			}
		}
	}
	return ok
}

// TestZBVZeroBubble: with T_F = T_B = T_W, ZB-V has no bubble inside any
// device's window (Qi et al. 2024), for every p ≤ 16 and m ≥ 2p up to 64,
// while holding at most 2p chunk activations (p stage-equivalents).
func TestZBVZeroBubble(t *testing.T) {
	ms := units.Millisecond
	for p := 1; p <= 16; p++ {
		for m := 2 * p; m <= 64; m += max(1, p/2) {
			s, err := ZBV(p, m)
			if err != nil {
				t.Fatal(err)
			}
			r := Execute(s, Times{F: ms, B: ms, W: ms})
			if r.Bubble != 0 {
				t.Errorf("zb-v p=%d m=%d: bubble %v, want 0", p, m, r.Bubble)
			}
			for d, c := range r.PeakChunks {
				if c > 2*p {
					t.Errorf("zb-v p=%d m=%d: device %d holds %d chunks, want ≤ %d", p, m, d, c, 2*p)
				}
			}
		}
	}
}
