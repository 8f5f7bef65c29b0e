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
