package collective

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"paraplay/sim/units"
)

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		op, algo string
		cfg      Config
		want     string // a fragment of the error
	}{
		{"allreduce", "ring", Config{Ranks: 4, Bytes: 1}, "all_reduce, reduce_scatter"},
		{"all_reduce", "rings", Config{Ranks: 4, Bytes: 1}, "auto, ring, tree"},
		{"broadcast", "ring", Config{Ranks: 4, Bytes: 1}, "auto, binomial, chain"},
		{"all_reduce", "halving_doubling", Config{Ranks: 6, Bytes: 1}, "power-of-two"},
		{"all_reduce", "hierarchical", Config{Ranks: 6, Bytes: 1}, "nodes"},
		{"all_reduce", "ps", Config{Ranks: 4, Servers: 3, Bytes: 1}, "workers"},
		{"sendrecv", "auto", Config{Ranks: 3, Bytes: 1}, "2 ranks"},
		{"all_reduce", "ring", Config{Ranks: 0, Bytes: 1}, "ranks 0"},
		{"all_reduce", "ring", Config{Ranks: MaxRanks + 1, Bytes: 1}, "use Time"},
		{"broadcast", "binomial", Config{Ranks: 4, Root: 4, Bytes: 1}, "root 4"},
		{"all_reduce", "ring", Config{Ranks: 4, Bytes: -1}, "negative"},
		{"all_reduce", "hierarchical", Config{Ranks: 5, Nodes: 2, PerNode: 2}, "not 2 nodes"},
	} {
		_, err := New(tc.op, tc.algo, tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q, %q, %+v) = %v, want an error containing %q", tc.op, tc.algo, tc.cfg, err, tc.want)
		}
	}
}

func TestValidateRejectsBrokenSchedules(t *testing.T) {
	broken := func(edit func(s *Schedule)) Schedule { s := Ring(4, 400); edit(&s); return s }
	for _, tc := range []struct {
		name string
		s    Schedule
	}{
		{"self send", broken(func(s *Schedule) { s.Transfers[0].Dst = s.Transfers[0].Src })},
		{"rank out of range", broken(func(s *Schedule) { s.Transfers[0].Dst = 4 })},
		{"step out of range", broken(func(s *Schedule) { s.Transfers[0].Step = s.Steps })},
		{"empty message", broken(func(s *Schedule) { s.Transfers[0].Bytes = 0 })},
		{"beyond the buffer", broken(func(s *Schedule) { s.Transfers[0].Offset = 390 })},
		{"waits for a later step", broken(func(s *Schedule) { s.SetAfter(0, []int{5}) })},
		{"waits for itself", broken(func(s *Schedule) { s.SetAfter(5, []int{5}) })},
		{"dangling dependency", broken(func(s *Schedule) { s.SetAfter(5, []int{999}) })},
		{"bad root", broken(func(s *Schedule) { s.Root = 7 })},
	} {
		if err := tc.s.Validate(); err == nil {
			t.Errorf("Validate(%s) = nil, want an error", tc.name)
		}
	}
}

// TestAutoFollowsTheCrossover: auto takes the tree below the size where the
// tree's and the ring's closed forms meet, and the ring from there on.
func TestAutoFollowsTheCrossover(t *testing.T) {
	for _, n := range []int{8, 16, 64, 256} {
		cfg := Config{Ranks: n}
		x := Crossover(n, 0, DefaultAlpha, DefaultBandwidth)
		if x <= 1 {
			t.Fatalf("Crossover(%d) = %v, want a positive size", n, x)
		}
		for _, tc := range []struct {
			s    units.Bytes
			want string
		}{{1, "tree"}, {x - 1, "tree"}, {x, "ring"}, {x + 1, "ring"}, {units.GiB, "ring"}} {
			cfg.Bytes = tc.s
			got, err := Resolve("all_reduce", "auto", cfg, DefaultAlpha, DefaultBandwidth)
			if err != nil || got != tc.want {
				t.Errorf("n=%d S=%v (crossover %v): auto = %q, %v; want %q", n, tc.s, x, got, err, tc.want)
			}
			s, err := New("all_reduce", "auto", cfg)
			if err != nil || s.Algorithm != tc.want {
				t.Errorf("n=%d S=%v: New(auto).Algorithm = %q, %v; want %q", n, tc.s, s.Algorithm, err, tc.want)
			}
		}
	}
	// Four ranks: the tree's 4·2−2 = 6 latencies equal the ring's 2·3, so the
	// ring wins at every size.
	if x := Crossover(4, 0, DefaultAlpha, DefaultBandwidth); x != 0 {
		t.Errorf("Crossover(4) = %v, want 0", x)
	}
}

func TestTreeVersusRingOn64Ranks(t *testing.T) {
	cfg := Config{Ranks: 64, Nodes: 8, PerNode: 8}
	for _, tc := range []struct {
		s      units.Bytes
		faster string
	}{{units.KiB, "tree"}, {units.GiB, "ring"}} {
		cfg.Bytes = tc.s
		tree, err1 := Time("all_reduce", "tree", cfg, DefaultAlpha, DefaultBandwidth)
		ring, err2 := Time("all_reduce", "ring", cfg, DefaultAlpha, DefaultBandwidth)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got := map[bool]string{true: "tree", false: "ring"}[tree < ring]; got != tc.faster {
			t.Errorf("64 ranks, %v: tree %g s, ring %g s; faster %s, want %s", tc.s, tree, ring, got, tc.faster)
		}
	}
}

func TestBusBWFactor(t *testing.T) {
	for _, tc := range []struct {
		op   string
		n    int
		want float64
	}{
		{"all_reduce", 8, 1.75}, {"reduce_scatter", 8, 0.875}, {"all_gather", 4, 0.75},
		{"all_to_all", 2, 0.5}, {"broadcast", 8, 1}, {"reduce", 8, 1}, {"sendrecv", 2, 1}, {"nope", 8, 0},
	} {
		if got := BusBWFactor(tc.op, tc.n); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("BusBWFactor(%q, %d) = %g, want %g", tc.op, tc.n, got, tc.want)
		}
	}
}

// TestNewBuildsEveryAlgorithm: every listed op/algorithm pair builds a
// schedule that validates, replays correctly and has a time.
func TestNewBuildsEveryAlgorithm(t *testing.T) {
	for _, op := range Ops() {
		for _, algo := range Algorithms(op) {
			cfg := Config{Ranks: 8, Nodes: 2, PerNode: 4, Bytes: 4099, Root: 3, Chunks: 2, Servers: 2}
			if op == "sendrecv" {
				cfg = Config{Ranks: 2, Bytes: 4099}
			}
			s, err := New(op, algo, cfg)
			if err != nil {
				t.Errorf("New(%s, %s) = %v", op, algo, err)
				continue
			}
			if err := s.Validate(); err != nil {
				t.Errorf("New(%s, %s).Validate() = %v", op, algo, err)
			}
			if err := replay(s); err != nil {
				t.Errorf("New(%s, %s): %v", op, algo, err)
			}
			if tm, err := Time(op, algo, cfg, DefaultAlpha, DefaultBandwidth); err != nil || tm <= 0 {
				t.Errorf("Time(%s, %s) = %g, %v; want a positive time", op, algo, tm, err)
			}
		}
	}
}

func FuzzNew(f *testing.F) {
	f.Add("all_reduce", "ring", 4, int64(1024), 1)
	f.Add("all_reduce", "tree", 7, int64(3), 3)
	f.Add("all_reduce", "hierarchical", 6, int64(100), 0)
	f.Add("broadcast", "chain", 5, int64(7), 9)
	f.Add("all_to_all", "auto", 3, int64(2), 0)
	f.Add("all_reduce", "ps", 5, int64(9), 0)
	f.Fuzz(func(t *testing.T, op, algo string, ranks int, bytes int64, chunks int) {
		ranks %= 40 // keep schedules small enough to replay
		cfg := Config{Ranks: ranks, Bytes: units.Bytes(bytes % (1 << 40)), Chunks: chunks % 8, Root: max(ranks-1, 0)}
		if ranks%2 == 0 && ranks > 0 {
			cfg.Nodes, cfg.PerNode = 2, ranks/2
		}
		s, err := New(op, algo, cfg)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("New(%q, %q, %+v) built an invalid schedule: %v", op, algo, cfg, err)
		}
		if _, err := Time(op, algo, cfg, DefaultAlpha, DefaultBandwidth); err != nil {
			t.Fatalf("New(%q, %q, %+v) works but Time fails: %v", op, algo, cfg, err)
		}
	})
}

func BenchmarkRing1024(b *testing.B) {
	for b.Loop() {
		Ring(1024, units.GiB)
	}
}

func BenchmarkDoubleBinaryTree1024(b *testing.B) {
	for b.Loop() {
		DoubleBinaryTree(1024, units.GiB, 8)
	}
}

func ExampleNew() {
	cfg := Config{Ranks: 8, Bytes: 64 * units.MiB}
	for _, algo := range []string{"ring", "tree", "halving_doubling", "auto"} {
		s, err := New("all_reduce", algo, cfg)
		if err != nil {
			fmt.Println(err)
			continue
		}
		t, _ := Time("all_reduce", algo, cfg, 5*units.Microsecond, 25*units.GBps)
		fmt.Printf("%-16s %2d steps %3d transfers %v\n", s.Algorithm, s.Steps, len(s.Transfers), units.Round(t))
	}
	_, err := New("all_reduce", "butterfly", cfg)
	fmt.Println(err)
	// Output:
	// ring             14 steps 112 transfers 4.76762ms
	// tree              6 steps  28 transfers 13.471773ms
	// halving_doubling  6 steps  48 transfers 4.72762ms
	// ring             14 steps 112 transfers 4.76762ms
	// collective: all_reduce has no algorithm "butterfly"; want one of auto, ring, tree, halving_doubling, recursive_doubling, hierarchical, ps, direct
}

func ExampleDoubleBinaryTree() {
	for i, tr := range Trees(8) {
		fmt.Printf("tree %d: root %d, parents %v\n", i, tr.Root, tr.Parent)
	}
	s := DoubleBinaryTree(8, units.MiB, 4)
	fmt.Println(s.Steps, "steps,", len(s.Transfers), "transfers")
	// Output:
	// tree 0: root 0, parents [-1 2 4 2 0 6 4 6]
	// tree 1: root 7, parents [1 3 1 7 5 3 5 -1]
	// 9 steps, 112 transfers
}

func ExampleBroadcastBinomial() {
	s := BroadcastBinomial(5, units.KiB, 2)
	for _, t := range s.Transfers {
		fmt.Printf("round %d: %d → %d\n", t.Step, t.Src, t.Dst)
	}
	// Output:
	// round 0: 2 → 3
	// round 1: 2 → 4
	// round 1: 3 → 0
	// round 2: 2 → 1
}

// TestPhaseNames: each phase writes the name the timeline and the scene
// know it by.
func TestPhaseNames(t *testing.T) {
	want := []string{"", "reduce-scatter", "all-gather", "reduce", "broadcast", "all-reduce", "all-to-all",
		"send", "barrier", "push", "pull", "pp", "state", "cyclic", "token", "activations", "gradients", "model", "weights",
		"C-relax", "coarse", "forward", "backward", "offload", "reload", "phase?"}
	for p, w := range want {
		if got := Phase(p).String(); got != w {
			t.Errorf("Phase(%d) = %q, want %q", p, got, w)
		}
	}
}
