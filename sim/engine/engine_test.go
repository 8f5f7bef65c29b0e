package engine

import (
	"fmt"
	"testing"

	"paraplay/sim/units"
)

func TestOrderByTimeThenSequence(t *testing.T) {
	var e Engine
	var got []string
	add := func(at units.Time, name string) {
		e.At(at, func() { got = append(got, fmt.Sprintf("%s@%d", name, e.Now())) })
	}
	add(30, "c")
	add(10, "a")
	add(30, "d") // same instant as c, scheduled later: fires after c
	add(20, "b")
	e.At(10, func() {
		got = append(got, "a2@10")
		e.After(0, func() { got = append(got, "nested@10") })
	})
	end := e.Run()
	want := []string{"a@10", "a2@10", "nested@10", "b@20", "c@30", "d@30"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order = %v, want %v", got, want)
	}
	if end != 30 {
		t.Errorf("Run() = %v, want 30", end)
	}
	if e.Fired() != 6 {
		t.Errorf("Fired() = %d, want 6", e.Fired())
	}
}

func TestSchedulingIntoThePastPanics(t *testing.T) {
	var e Engine
	e.At(10, func() {
		defer func() {
			if recover() == nil {
				t.Error("At(5) at time 10 did not panic")
			}
		}()
		e.At(5, func() {})
	})
	e.Run()
}

func BenchmarkEngine(b *testing.B) {
	for b.Loop() {
		var e Engine
		var n int
		var tick func()
		tick = func() {
			n++
			if n < 10000 {
				e.After(units.Time(n%7), tick)
			}
		}
		for i := 0; i < 8; i++ {
			e.At(0, tick)
		}
		e.Run()
	}
}

// TestHeapOrderUnderLoad schedules many events in a scrambled order and
// checks they fire sorted by (time, scheduling order).
func TestHeapOrderUnderLoad(t *testing.T) {
	var e Engine
	type rec struct {
		at  units.Time
		seq int
	}
	var got []rec
	for i := 0; i < 5000; i++ {
		at := units.Time((i * 7919) % 613)
		i := i
		e.At(at, func() { got = append(got, rec{e.Now(), i}) })
	}
	e.Run()
	for k := 1; k < len(got); k++ {
		a, b := got[k-1], got[k]
		if a.at > b.at || (a.at == b.at && a.seq > b.seq) {
			t.Fatalf("event %v fired before %v", a, b)
		}
	}
	if len(got) != 5000 {
		t.Errorf("%d events fired, want 5000", len(got))
	}
}

// BenchmarkEventsPerSecond reports the engine's raw throughput with a
// steady queue of 1,000 pending events (the size of a large collective).
func BenchmarkEventsPerSecond(b *testing.B) {
	var e Engine
	var n int
	var tick func()
	tick = func() {
		n++
		if n < b.N {
			e.After(units.Time(1+n%1000), tick)
		}
	}
	for i := 0; i < 1000; i++ {
		e.At(units.Time(i), tick)
	}
	b.ResetTimer()
	e.Run()
	b.ReportMetric(float64(e.Fired())/b.Elapsed().Seconds(), "events/s")
}
