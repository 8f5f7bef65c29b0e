package pipeline

import (
	"math"

	"paraplay/sim/units"
)

// Bubble is a schedule's closed-form pipeline bubble: the formula as text,
// the definition of the idle time b it uses (empty when it uses none), and
// its value.
type Bubble struct {
	// Formula is the bubble fraction in plain text, e.g. "(p−1)/(m+p−1)".
	Formula string
	// Where defines b, e.g. "b = (p−1)(T_F+T_B−T_W)"; empty for the
	// formulas in p, m and v alone.
	Where string
	// Fraction is the bubble as a fraction of the window Execute's
	// Result.BubbleFraction measures: a device's first op to its last,
	// m(T_F+T_B+T_W) of work plus the idle time.
	Fraction float64
}

// BubbleFormula is the closed-form bubble of the schedule called name (a
// New name) on p devices with m microbatches and v chunks per device, for
// per-stage op times t (an interleaved chunk runs 1/v of them; only the
// zero-bubble and local-loss forms use the times). The idle times are those
// of Huang et al. 2019 (GPipe), Narayanan et al. 2021 (1F1B, interleaving),
// Qi et al. 2024 (ZB-H1, ZB-H2), Rae et al. 2024 (2BP) and Laskin et al.
// 2020 (local losses). ok
// is false for the schedules without a closed form that is exact on ideal
// devices (ZB-V, DualPipeV, asynchronous PipeDream).
func BubbleFormula(name string, p, m, v int, t Times) (b Bubble, ok bool) {
	pf, mf, vf := float64(p), float64(m), float64(v)
	F, B, W := t.F.Seconds(), t.B.Seconds(), t.W.Seconds()
	overOps := func(idle float64) float64 { return idle / (mf*(F+B+W) + idle) }
	const overWork = "b/(m(T_F+T_B+T_W)+b)"
	switch name {
	case "gpipe", "1f1b", "ready-first", "hetero-1f1b":
		return Bubble{"(p−1)/(m+p−1)", "", (pf - 1) / (mf + pf - 1)}, true
	case "interleaved":
		return Bubble{"((p−1)/v)/(m+(p−1)/v)", "", ((pf - 1) / vf) / (mf + (pf-1)/vf)}, true
	case "zb-h1":
		return Bubble{overWork, "b = (p−1)(T_F+T_B−T_W)", overOps((pf - 1) * (F + B - W))}, true
	case "zb-h2":
		return Bubble{overWork, "b = max(0, (p−1)(T_F+T_B−2T_W))", overOps(math.Max(0, (pf-1)*(F+B-2*W)))}, true
	case "gpipe-2bp", "1f1b-2bp":
		// The W's run after the device's last B, off the chain of
		// backwards (Rae et al. 2024).
		return Bubble{overWork, "b = (p−1)(T_F+T_B)", overOps((pf - 1) * (F + B))}, true
	case "local-loss":
		// No stage waits for a downstream gradient, so no device idles
		// once it has started.
		return Bubble{overWork, "b = 0", overOps(0)}, true
	}
	return Bubble{}, false
}

// LocalLossIteration is the makespan of LocalLoss(p, m) for op times t:
// m(T_F+T_B+T_W) of work on every device plus the (p−1)·T_F it takes the
// first activation to reach the last stage, where the last device starts.
func LocalLossIteration(p, m int, t Times) units.Time {
	return units.Time(m)*(t.F+t.B+t.W) + units.Time(p-1)*t.F
}
