package dataparallel

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/units"
)

func TestRingMatchesAlphaBeta(t *testing.T) {
	for _, n := range []int{2, 4, 8, 16} {
		for _, tc := range []struct {
			size  units.Bytes
			bw    units.Bandwidth
			alpha units.Time
		}{
			{256 * units.MiB, 100 * units.GBps, 5 * units.Microsecond},
			{1 * units.MiB, 25 * units.GBps, 2 * units.Microsecond},
			{64 * units.KiB, 50 * units.GBps, 10 * units.Microsecond}, // latency-bound
			{1000003, 12.5 * units.GBps, 0},                           // not a multiple of n
		} {
			s := scenario.Default()
			s.GPUs, s.Collective.Size, s.Link.Bandwidth, s.Link.Latency = n, tc.size, tc.bw, tc.alpha
			tl, err := Simulate(s)
			if err != nil {
				t.Fatalf("Simulate(n=%d, S=%v): %v", n, tc.size, err)
			}
			c := tl.Collectives[0]
			got := (c.End - c.Start).Seconds()
			nf := float64(n)
			want := 2*(nf-1)*tc.alpha.Seconds() + 2*(nf-1)/nf*float64(tc.size)/float64(tc.bw)
			if rel := math.Abs(got-want) / want; rel > 0.001 {
				t.Errorf("n=%d S=%v B=%v α=%v: all-reduce took %.9fs, α–β formula says %.9fs (error %.4f%%)",
					n, tc.size, tc.bw, tc.alpha, got, want, 100*rel)
			}
			if f := collective.RingTime(n, tc.size, tc.alpha, tc.bw); math.Abs(f-want) > 1e-15 {
				t.Errorf("RingTime(%d) = %v, want %v", n, f, want)
			}
		}
	}
}

func TestIterationIsComputeThenAllReduce(t *testing.T) {
	s := scenario.Default()
	tl, err := Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	compute := s.Compute.Forward + s.Compute.Backward
	ar := units.Round(collective.RingTime(s.GPUs, s.Collective.Size, s.Link.Latency, s.Link.Bandwidth))
	want := compute + ar
	if d := tl.End - want; d < -10 || d > 10 {
		t.Errorf("iteration = %v, want compute %v + all-reduce %v = %v", tl.End, compute, ar, want)
	}
	if got := tl.Collectives[0].Start; got != compute {
		t.Errorf("all-reduce starts at %v, want %v (after backward)", got, compute)
	}
	if got, want := tl.Transfers.Len(), 2*(s.GPUs-1)*s.GPUs; got != want {
		t.Errorf("%d transfers, want %d", got, want)
	}
}

func TestStragglerDelaysEveryone(t *testing.T) {
	s := scenario.Default()
	s.Compute.Jitter = 0.5
	tl, err := Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	var slowest units.Time
	for _, sp := range tl.Spans {
		slowest = max(slowest, sp.End)
	}
	// The reduce-scatter cannot finish before the slowest GPU has sent its
	// chunks, so the all-reduce ends at least its n−1 steps after that.
	step := units.Round(float64(s.Collective.Size/units.Bytes(s.GPUs)) / float64(s.Link.Bandwidth))
	if tl.End < slowest+units.Time(s.GPUs-1)*step {
		t.Errorf("iteration ends at %v, before the slowest GPU (%v) could finish its part of the ring", tl.End, slowest)
	}
}

func TestDeterministic(t *testing.T) {
	for _, file := range []string{"../scenario/testdata/ring4.yaml", "../scenario/testdata/ring8-jitter.yaml"} {
		var traces [2]bytes.Buffer
		for i := range traces {
			tl, err := Simulate(strategytest.Load(t, file))
			if err != nil {
				t.Fatal(err)
			}
			if err := tl.WriteChromeTrace(&traces[i]); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
			t.Errorf("%s: two runs gave different traces", file)
		}
	}
}

func TestSeedChangesJitter(t *testing.T) {
	s := scenario.Default()
	s.Compute.Jitter = 0.2
	a, _ := Simulate(s)
	s.Seed++
	b, _ := Simulate(s)
	if a.End == b.End {
		t.Errorf("seeds %d and %d gave the same iteration time %v", s.Seed-1, s.Seed, a.End)
	}
}

func ExampleSimulate() {
	s := scenario.Default()
	tl, err := Simulate(s)
	if err != nil {
		panic(err)
	}
	c := tl.Collectives[0]
	fmt.Printf("%s %s on %d GPUs: %v of %v\n", c.Algorithm, c.Name, c.Ranks, c.Bytes, c.End-c.Start)
	fmt.Println("iteration:", tl.End)
	// Output:
	// ring all-reduce on 4 GPUs: 256MiB of 4.056534ms
	// iteration: 10.056534ms
}

func BenchmarkSimulate(b *testing.B) {
	for _, n := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("gpus=%d", n), func(b *testing.B) {
			s := scenario.Default()
			s.GPUs = n
			for b.Loop() {
				if _, err := Simulate(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
