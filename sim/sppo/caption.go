//go:build !js

package sppo

import (
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

// Caption is the caption of an SPPO demo: the run's length; the GPU's
// peak memory beside its closed form and the peak with nothing
// offloaded; the host memory beside its closed form; and what offloading
// cost in time, the run against the same run with sppo.offload = 0,
// beside Σ max(0, D_c − F_{c+1}) (the forward the offloads hold back;
// within 10%, or both zero: the pipeline's other waits may absorb some).
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	r, err := strategy.RecordOf[*Record](tl, Name)
	if err != nil {
		return nil, err
	}
	none := s
	Edit(&none, func(y *Settings) { y.Offload = 0 })
	base, err := Simulate(none)
	if err != nil {
		return nil, err
	}
	return []strategy.Part{strategy.Figure("simulated run {}", strategy.Nanos(tl.End)),
		strategy.Compare(strategy.Check{Name: "GPU peak", Formula: "states + Σ A_c − f·Σ_{c≤n−3} A_c",
			Source: "two chunk buffers, SPPO's offload (Chen et al. 2025); activations per Korthikanti et al. 2022", Tolerance: 1e-6},
			"GPU peak memory {}; closed form {}", float64(r.Peak), float64(r.PeakClosed), strategy.GiB),
		strategy.Figure("{} with nothing offloaded, of the GPU's {}", strategy.Bytes(r.PeakResident, strategy.GiB), strategy.Bytes(r.HBM, strategy.GiB)),
		strategy.Compare(strategy.Check{Name: "host memory", Formula: "f·Σ_{c≤n−2} A_c", Source: "every offloaded chunk is on the host before the first reload", Tolerance: 1e-6},
			"host memory per GPU {}; closed form {}", float64(r.Host), float64(r.HostClosed), strategy.GiB),
		strategy.Compare(strategy.Check{Name: "offload cost", Formula: "Σ_c max(0, D_c − F_{c+1})",
			Source: "an offload hides iff it ends under the next chunk's forward", Tolerance: 0.1},
			"offloading adds {} to the run; closed form {}", float64(tl.End-base.End), float64(r.Exposed), strategy.Nanoseconds),
	}, nil
}
