//go:build !js

package localsgd

import (
	"fmt"
	"paraplay/sim/nccltest"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Caption is the caption of a local-SGD demo: the run's length and its
// worker iterations per second; the bytes sent, K/H all-reduces of the
// model, beside what synchronous data parallelism sends in K iterations;
// and the run time beside K·(F+B) + (K/H)·(t_c·S + T_AR(r·S)), compression
// included (localSGDRunFormula). Jitter and compression change the
// compute and the bytes the closed forms assume, so with either the
// caption keeps to simulated figures.
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	a := sum.Async
	exact := s.Compute.Jitter == 0 && !s.Compression.Enabled()
	parts := []strategy.Part{strategy.Figure("run {}", strategy.Nanos(sum.Iteration)),
		strategy.Figure("{} iterations, {} per second", strategy.Whole(a.Iterations), strategy.Value{V: a.Throughput, Unit: strategy.Count}),
		strategy.Figure("sent {}", strategy.Bytes(a.Bytes, strategy.Size))}
	if exact {
		dp, err := dpBytes(s)
		if err != nil {
			return nil, err
		}
		k, h := s.Iterations, s.Sync.Period
		if h == 1 {
			parts = append(parts, strategy.Figure("synchronous DP sends the same {}", strategy.Bytes(dp*units.Bytes(k), strategy.Size)))
		} else {
			parts = append(parts, strategy.Figure(fmt.Sprintf("synchronous DP would send {}, H = %d times as much", h), strategy.Bytes(dp*units.Bytes(k), strategy.Size)))
		}
	}
	part, ok, err := localSGDRunFormula(s, sum)
	if err != nil {
		return nil, err
	}
	if ok {
		parts = append(parts, part)
	}
	return parts, nil
}

// dpBytes is what one all-reduce of the scenario's model sends on its
// ring of GPUs: 2(n−1)·S for the ring, the schedule's own sum otherwise.
func dpBytes(s scenario.Scenario) (units.Bytes, error) {
	n := s.NumGPUs()
	sch, err := collective.New(s.Collective.Op, s.Collective.Algorithm, collective.Config{Ranks: n, Nodes: 1, PerNode: n,
		Bytes: s.Collective.Size, Chunks: s.Collective.Chunks})
	if err != nil {
		return 0, err
	}
	var b units.Bytes
	for _, x := range sch.Transfers {
		b += x.Bytes
	}
	return b, nil
}

// localSGDRunFormula prices a whole local-SGD run in closed form, for the
// caption to print beside the simulated run time:
//
//	T = K·(F + B) + (K/H)·(t_c·S/MiB + T_AR(r·S))
//
// K iterations of compute, and K/H averagings, each the encoder's cost
// (compression.time_per_mib per MiB of the model, on every GPU at once) and
// an all-reduce of the compressed model, T_AR the α–β formula of the
// algorithm that ran (collectiveFormula). It holds when nothing makes the
// workers differ or overlaps the averaging with compute: equal speeds, no
// jitter or straggler noise, the whole model averaged at once, and K a
// multiple of H. ok is false otherwise, and the caption keeps to the
// simulated figure.
func localSGDRunFormula(s scenario.Scenario, sum timeline.Summary) (part strategy.Part, ok bool, err error) {
	secs, ok, err := localSGDRunSeconds(s, sum)
	if !ok || err != nil {
		return strategy.Part{}, ok, err
	}
	form := "K·(F+B) + (K/H)·T_AR(S)"
	if s.Compression.Enabled() {
		form = "K·(F+B) + (K/H)·(t_c·S + T_AR(r·S))"
	}
	return strategy.Compare(strategy.Check{Name: "local SGD run", Formula: form,
		Source: "K iterations of compute and K/H averagings of the model", Tolerance: 1e-6},
		fmt.Sprintf("run: simulated {}; %s = {} (K = %d, H = %d)", form, s.Iterations, s.Sync.Period),
		float64(sum.Iteration), float64(units.Round(secs)), strategy.Nanoseconds), true, nil
}

// localSGDRunSeconds is the closed form T of localSGDRunFormula, in seconds.
func localSGDRunSeconds(s scenario.Scenario, sum timeline.Summary) (secs float64, ok bool, err error) {
	if s.Compute.Jitter != 0 || s.Straggler.CV != 0 ||
		s.Sync.Layers > 1 || len(sum.Collectives) == 0 || s.Iterations%s.Sync.Period != 0 {
		return 0, false, nil
	}
	for i := 0; i < s.NumGPUs(); i++ {
		if s.Sync.Speed(i) != 1 {
			return 0, false, nil
		}
	}
	k, h := s.Iterations, s.Sync.Period
	c := s.Compression
	ratio := 1.0
	if c.Ratio > 0 {
		ratio = c.Ratio
	}
	wire := s
	wire.Collective.Size = units.Bytes(float64(s.Collective.Size)*ratio + 0.5)
	algo := sum.Collectives[0].Algorithm
	_, ar, err := nccltest.Formula(wire, s.Collective.Op, algo)
	if err != nil {
		return 0, false, err
	}
	encode := c.TimePerMiB.Seconds() * float64(s.Collective.Size) / float64(units.MiB)
	return float64(k)*(s.Compute.Forward+s.Compute.Backward).Seconds() + float64(k/h)*(encode+ar), true, nil
}
