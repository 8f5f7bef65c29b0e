package collective

import (
	"fmt"
	"testing"

	"paraplay/sim/units"
)

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
