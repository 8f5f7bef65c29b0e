package fault

import (
	"math"

	"paraplay/sim/units"
)

// YoungInterval is Young's first-order optimum checkpoint interval,
// √(2·C·M) for a checkpoint cost C and a mean time between failures M
// (J. W. Young, "A first order approximation to the optimum checkpoint
// interval", CACM 17(9), 1974).
func YoungInterval(cost, mtbf units.Time) units.Time {
	return units.Round(math.Sqrt(2 * cost.Seconds() * mtbf.Seconds()))
}

// DalyInterval is Daly's higher-order optimum (J. T. Daly, "A higher order
// estimate of the optimum checkpoint interval for restart dumps", FGCS
// 22(3), 2006): √(2CM)·[1 + ⅓·√(C/2M) + ⅑·(C/2M)] − C when C < 2M,
// and M otherwise.
func DalyInterval(cost, mtbf units.Time) units.Time {
	c, m := cost.Seconds(), mtbf.Seconds()
	if c >= 2*m {
		return mtbf
	}
	x := c / (2 * m)
	return units.Round(math.Sqrt(2*c*m)*(1+math.Sqrt(x)/3+x/9) - c)
}

// DalyGoodput is the expected goodput of checkpoint-restart under
// exponential failures, from Daly 2006: a segment of τ useful
// work plus its checkpoint C takes M·e^{R/M}·(e^{(τ+C)/M} − 1) of wall
// time in expectation when every failure costs the work since the last
// checkpoint plus a restart R (here detection + restart), failures may
// strike during restarts too, and M is the mean time between failures.
// Goodput is τ over that.
func DalyGoodput(interval, cost, restart, mtbf units.Time) float64 {
	t, c, r, m := interval.Seconds(), cost.Seconds(), restart.Seconds(), mtbf.Seconds()
	if t <= 0 || m <= 0 {
		return 0
	}
	return t / (m * math.Exp(r/m) * math.Expm1((t+c)/m))
}

// FirstOrderGoodput is the first-order approximation of the same:
// τ/(τ+C) of the running time is useful, and each of the failures, one per
// M of wall time, costs R plus half a segment, (τ+C)/2, on average:
// τ/(τ+C) · (1 − (R + (τ+C)/2)/M). It is accurate when τ+C and R are
// small against M, and it is what Young's √(2CM) maximises (to first
// order).
func FirstOrderGoodput(interval, cost, restart, mtbf units.Time) float64 {
	t, c, r, m := interval.Seconds(), cost.Seconds(), restart.Seconds(), mtbf.Seconds()
	if t <= 0 || m <= 0 {
		return 0
	}
	return t / (t + c) * (1 - (r+(t+c)/2)/m)
}
