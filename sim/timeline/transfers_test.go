package timeline

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"unsafe"
)

// TestTransferRecordIs32Bytes: the record the memory budget counts
// (budget.TransferBytes), and the loose record of a message no schedule
// holds.
func TestTransferRecordIs32Bytes(t *testing.T) {
	if got := unsafe.Sizeof(transferRec{}); got != 32 {
		t.Errorf("transferRec is %d bytes, want 32", got)
	}
	if got := unsafe.Sizeof(looseRec{}); got != 40 {
		t.Errorf("looseRec is %d bytes, want 40", got)
	}
}

// someTransfers covers what a list must give back as it was given: nil and
// empty paths and rates, several phases, and numbers beyond 32 bits.
func someTransfers() []Transfer {
	return []Transfer{
		{Path: []int{0, 3}, Src: 0, Dst: 1, Bytes: 1 << 40, Collective: -1, Step: 3, Chunk: 2, Channel: 7, Phase: "reduce-scatter",
			Start: 5, End: 9, Rates: []Rate{{At: 6, BytesPerSecond: 1e9}, {At: 7, BytesPerSecond: 0}}},
		{Src: 1, Dst: 0, Channel: -1, Phase: "all-gather", Start: 5, End: 6},
		{Path: []int{}, Src: 2, Dst: 3, Phase: "reduce-scatter", Rates: []Rate{}},
		{Path: []int{7}, Src: 1 << 40, Dst: -3, Collective: math.MinInt32 - 1, Step: math.MaxInt32 + 1, Channel: 3, Phase: "wide",
			Rates: []Rate{{At: 1, BytesPerSecond: 2}}},
		{Path: []int{0, 3}, Src: 0, Dst: 1, Collective: math.MaxInt32, Step: math.MinInt32, Chunk: -1, Phase: ""},
	}
}

func TestTransfersGiveBackWhatTheyKeep(t *testing.T) {
	want := someTransfers()
	xs := TransfersOf(want...)
	if xs.Len() != len(want) {
		t.Fatalf("Len() = %d, want %d", xs.Len(), len(want))
	}
	for i := range want {
		if got := xs.At(i); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("At(%d) = %+v, want %+v", i, got, want[i])
		}
		if s, e := xs.Interval(i); s != want[i].Start || e != want[i].End {
			t.Errorf("Interval(%d) = %v, %v; want %v, %v", i, s, e, want[i].Start, want[i].End)
		}
	}
	kept := xs.Kept(func(x *Transfer) bool {
		x.Step++
		return x.Phase == "reduce-scatter"
	})
	if kept.Len() != 2 || kept.At(1).Src != 2 || kept.At(0).Step != 4 || xs.At(0).Step != 3 {
		t.Errorf("Kept: %d transfers, second from %d, first at step %d (the list's own at %d); want 2, 2, 4 and 3",
			kept.Len(), kept.At(1).Src, kept.At(0).Step, xs.At(0).Step)
	}
}

// TestTransfersAsAnExecutorWritesThem: appended when they leave, each
// path added once, completed when they arrive (in another order).
func TestTransfersAsAnExecutorWritesThem(t *testing.T) {
	var xs Transfers
	xs.Grow(3, 4)
	a := xs.Append(Transfer{Src: 0, Dst: 1, Bytes: 10, Collective: 0, Channel: 2, Phase: "p", Start: 1})
	b := xs.Append(Transfer{Src: 1, Dst: 0, Bytes: 20, Collective: 0, Phase: "p", Start: 2})
	route := xs.Route([]int{4, 5})
	xs.Arrive(b, route, 8, []Rate{{At: 3, BytesPerSecond: 1e9}})
	xs.Arrive(a, route, 9, []Rate{{At: 2, BytesPerSecond: 1e9}, {At: 4, BytesPerSecond: 2e9}})
	want := []Transfer{
		{Path: []int{4, 5}, Src: 0, Dst: 1, Bytes: 10, Channel: 2, Phase: "p", Start: 1, End: 9, Rates: []Rate{{At: 2, BytesPerSecond: 1e9}, {At: 4, BytesPerSecond: 2e9}}},
		{Path: []int{4, 5}, Src: 1, Dst: 0, Bytes: 20, Phase: "p", Start: 2, End: 8, Rates: []Rate{{At: 3, BytesPerSecond: 1e9}}},
	}
	for i := range want {
		if got := xs.At(i); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("At(%d) = %+v, want %+v", i, got, want[i])
		}
	}
}

// TestTransfersJSON: the bytes encoding/json gives a []Transfer (null for
// a list never made, [] for an empty one), and back.
func TestTransfersJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []Transfer
	}{{"nil", nil}, {"empty", []Transfer{}}, {"some", someTransfers()}} {
		var list Transfers
		if tc.xs != nil {
			list = TransfersOf(tc.xs...)
		}
		got, err := json.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(tc.xs)
		if string(got) != string(want) {
			t.Errorf("%s: %s, want %s", tc.name, got, want)
		}
		var back Transfers
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
		if again, _ := json.Marshal(back); string(again) != string(want) {
			t.Errorf("%s: read back as %s, want %s", tc.name, again, want)
		}
	}
}
