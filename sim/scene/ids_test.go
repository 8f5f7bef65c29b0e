package scene

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestIDTables checks the memoized IDs against plain concatenation, for
// indices in and out of order, repeated, negative and past the table, and
// for the recent-IDs cache across frames that share some transfers.
func TestIDTables(t *testing.T) {
	want := func(prefix string, i int, suffix string) string { return prefix + strconv.Itoa(i) + suffix }
	tab := idTable{prefix: "gpu/", suffix: "/label"}
	for _, i := range []int{3, 0, 3, 70, -2, maxTabled, maxTabled + 5, 1} {
		if got := tab.at(i); got != want("gpu/", i, "/label") {
			t.Errorf("idTable.at(%d) = %q, want %q", i, got, want("gpu/", i, "/label"))
		}
	}
	if len(tab.ids) != 71 {
		t.Errorf("idTable kept %d slots, want 71 (the largest tabled index plus one)", len(tab.ids))
	}
	for _, tabled := range []bool{true, false} {
		ids := newTransferIDs(1, "")
		ids.tabled = tabled
		rng := rand.New(rand.NewPCG(1, 2))
		for frame := range 50 {
			ids.next()
			base := int32(frame * 3)
			for range 20 {
				i := base + rng.Int32N(12) // overlapping frames, any order
				if got := ids.at(i); got != want("xfer/", int(i), "") {
					t.Fatalf("tabled=%v frame %d: at(%d) = %q", tabled, frame, i, got)
				}
			}
		}
	}
}

func TestRecentIDsReuse(t *testing.T) {
	r := recentIDs{prefix: "xfer/"}
	r.next()
	a := r.at(5)
	r.next()
	r.next() // 5 was not used in the frame before: forgotten
	r.at(5)
	r.next()
	if n := testing.AllocsPerRun(10, func() { r.at(5); r.next() }); n != 0 {
		t.Errorf("an ID used in every frame allocates %.0f times per frame, want 0", n)
	}
	if r.at(5) != a {
		t.Errorf("at(5) = %q, want %q", r.at(5), a)
	}
}
