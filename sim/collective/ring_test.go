package collective

import (
	"fmt"
	"strings"
	"testing"

	"paraplay/sim/units"
)

// grid draws which chunk each rank sends at each step, one row per step.
func grid(s Schedule) string {
	var b strings.Builder
	for step := 0; step < s.Steps; step++ {
		row := make([]string, s.Ranks)
		for _, t := range s.Transfers {
			if t.Step == step {
				row[t.Src] = fmt.Sprintf("%d→%d:c%d", t.Src, t.Dst, t.Chunk)
			}
		}
		fmt.Fprintf(&b, "%d %s\n", step, strings.Join(row, " "))
	}
	return b.String()
}

func TestRingGrid(t *testing.T) {
	got := grid(Ring(4, 400))
	want := `0 0→1:c0 1→2:c1 2→3:c2 3→0:c3
1 0→1:c3 1→2:c0 2→3:c1 3→0:c2
2 0→1:c2 1→2:c3 2→3:c0 3→0:c1
3 0→1:c1 1→2:c2 2→3:c3 3→0:c0
4 0→1:c0 1→2:c1 2→3:c2 3→0:c3
5 0→1:c3 1→2:c0 2→3:c1 3→0:c2
`
	if got != want {
		t.Errorf("Ring(4) grid:\n%s\nwant:\n%s", got, want)
	}
}

// TestRingReduces replays the schedule on symbolic buffers: every rank must
// end with every chunk holding the contributions of all ranks, and no rank
// may send a chunk it has not received (beyond its own).
func TestRingReduces(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 8, 16} {
		s := Ring(n, units.Bytes(1000*n+3))
		if err := s.Validate(); err != nil {
			t.Fatalf("Ring(%d).Validate() = %v", n, err)
		}
		// have[r][c] is the set of ranks whose contribution rank r holds in chunk c.
		have := make([][]map[int]bool, n)
		for r := range have {
			have[r] = make([]map[int]bool, n)
			for c := range have[r] {
				have[r][c] = map[int]bool{r: true}
			}
		}
		for step := 0; step < s.Steps; step++ {
			type msg struct {
				dst, chunk int
				set        map[int]bool
				phase      string
			}
			var msgs []msg
			for _, tr := range s.Transfers {
				if tr.Step != step {
					continue
				}
				cp := map[int]bool{}
				for k := range have[tr.Src][tr.Chunk] {
					cp[k] = true
				}
				msgs = append(msgs, msg{tr.Dst, tr.Chunk, cp, tr.Phase})
			}
			for _, m := range msgs {
				if m.phase == PhaseReduceScatter {
					for k := range m.set {
						have[m.dst][m.chunk][k] = true
					}
				} else {
					have[m.dst][m.chunk] = m.set
				}
			}
		}
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				if len(have[r][c]) != n {
					t.Errorf("Ring(%d): rank %d chunk %d holds %d contributions, want %d", n, r, c, len(have[r][c]), n)
				}
			}
		}
	}
}

func TestRingMovesTheBandwidthOptimalVolume(t *testing.T) {
	// Each rank sends 2(n−1)/n·S bytes in total (Patarasuk & Yuan 2009).
	for _, n := range []int{2, 4, 8} {
		const s = 8 * 1024
		sent := make([]units.Bytes, n)
		for _, tr := range Ring(n, s).Transfers {
			sent[tr.Src] += tr.Bytes
		}
		want := units.Bytes(2 * (n - 1) * s / n)
		for r, got := range sent {
			if got != want {
				t.Errorf("Ring(%d): rank %d sends %d bytes, want %d", n, r, got, want)
			}
		}
	}
}

func TestChunkBytesSumsToBuffer(t *testing.T) {
	for _, tc := range []struct {
		s units.Bytes
		n int
	}{{10, 3}, {7, 8}, {1 << 20, 16}, {1, 2}} {
		var sum units.Bytes
		for c := 0; c < tc.n; c++ {
			sum += ChunkBytes(tc.s, tc.n, c)
		}
		if sum != tc.s {
			t.Errorf("chunks of %d over %d sum to %d", tc.s, tc.n, sum)
		}
	}
}

func ExampleRing() {
	s := Ring(3, 3*units.MiB)
	for _, t := range s.Transfers[:3] {
		fmt.Printf("step %d: rank %d sends chunk %d (%v) to rank %d during %s\n", t.Step, t.Src, t.Chunk, t.Bytes, t.Dst, t.Phase)
	}
	fmt.Println(s.Steps, "steps,", len(s.Transfers), "transfers")
	// Output:
	// step 0: rank 0 sends chunk 0 (1MiB) to rank 1 during reduce-scatter
	// step 0: rank 1 sends chunk 1 (1MiB) to rank 2 during reduce-scatter
	// step 0: rank 2 sends chunk 2 (1MiB) to rank 0 during reduce-scatter
	// 4 steps, 12 transfers
}
