package calibrate

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// Point is one measured collective: its time and the two coefficients
// its closed form puts on α and β (Coefficients).
type Point struct {
	// Label says where the point came from, for the residuals' table.
	Label string `json:"label"`
	// Bytes is the collective's size S.
	Bytes units.Bytes `json:"bytes"`
	// A multiplies α (seconds per second of α), F multiplies β (seconds
	// per s/B): t = α·A + β·F.
	A float64 `json:"a"`
	F float64 `json:"f"`
	// Time is the measured time in seconds.
	Time float64 `json:"time_s"`
}

// Coefficients are A and F of op by algo over ranks for a buffer of S
// bytes: collective.Time with α = 1 s and an infinite bandwidth, then
// with α = 0 and 1 B/s. The closed forms are linear in α and β, so
// t = α·A + β·F exactly.
func Coefficients(op, algo string, ranks int, bytes units.Bytes) (a, f float64, err error) {
	cfg := collective.Config{Ranks: ranks, Bytes: bytes}
	if a, err = collective.Time(op, algo, cfg, units.Second, 1e300); err != nil {
		return 0, 0, err
	}
	if f, err = collective.Time(op, algo, cfg, 0, 1); err != nil {
		return 0, 0, err
	}
	return a, f, nil
}

// LinkFit is a link's fitted α and bandwidth with its residuals.
type LinkFit struct {
	// Alpha is the fitted per-message latency, Bandwidth 1/β.
	Alpha     units.Time      `json:"alpha_ns"`
	Bandwidth units.Bandwidth `json:"bandwidth"`
	// Points are the measurements, Fitted their fitted times (s) and
	// Residuals (fitted − measured)/measured.
	Points    []Point   `json:"points"`
	Fitted    []float64 `json:"fitted_s"`
	Residuals []float64 `json:"residuals"`
	// AlphaClamped says the unconstrained fit gave a negative α, which
	// was held at 0 and β refitted.
	AlphaClamped bool `json:"alpha_clamped,omitempty"`
}

// FitLink fits α and β to points by relative least squares: the 2×2
// normal equations of Σ((α·A + β·F − t)/t)². It needs two points or
// more, with some spread in F/A, and positive times.
func FitLink(points []Point) (LinkFit, error) {
	if len(points) < 2 {
		return LinkFit{}, fmt.Errorf("calibrate: %d measurements; a fit of α and β needs at least 2", len(points))
	}
	var saa, saf, sff, sat, sft float64
	for _, p := range points {
		if !(p.Time > 0) || p.A < 0 || !(p.F >= 0) || math.IsInf(p.Time, 0) {
			return LinkFit{}, fmt.Errorf("calibrate: %s: time %g s, coefficients %g and %g: want a positive time", p.Label, p.Time, p.A, p.F)
		}
		w := 1 / (p.Time * p.Time)
		saa, saf, sff = saa+w*p.A*p.A, saf+w*p.A*p.F, sff+w*p.F*p.F
		sat, sft = sat+w*p.A*p.Time, sft+w*p.F*p.Time
	}
	det := saa*sff - saf*saf
	if !(math.Abs(det) > 1e-12*saa*sff) {
		return LinkFit{}, errors.New("calibrate: the measurements do not separate α from β (one size, or sizes too alike): measure a sweep of sizes")
	}
	alpha, beta := (sat*sff-sft*saf)/det, (saa*sft-saf*sat)/det
	fit := LinkFit{Points: points}
	if alpha < 0 {
		alpha, beta, fit.AlphaClamped = 0, sft/sff, true
	}
	if !(beta > 0) {
		return LinkFit{}, fmt.Errorf("calibrate: the fit gives β = %g s/B: the times do not grow with the size", beta)
	}
	fit.Alpha, fit.Bandwidth = units.Round(alpha), units.Bandwidth(1/beta)
	for _, p := range points {
		t := alpha*p.A + beta*p.F
		fit.Fitted = append(fit.Fitted, t)
		fit.Residuals = append(fit.Residuals, (t-p.Time)/p.Time)
	}
	return fit, nil
}

// Spread summarises relative residuals: the median and largest absolute
// value and the root mean square.
type Spread struct {
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	RMS    float64 `json:"rms"`
}

// SpreadOf summarises rs.
func SpreadOf(rs []float64) Spread {
	if len(rs) == 0 {
		return Spread{}
	}
	abs := make([]float64, len(rs))
	var sq float64
	for i, r := range rs {
		abs[i] = math.Abs(r)
		sq += r * r
	}
	slices.Sort(abs)
	med := abs[len(abs)/2]
	if len(abs)%2 == 0 {
		med = (abs[len(abs)/2-1] + abs[len(abs)/2]) / 2
	}
	return Spread{Median: med, Max: abs[len(abs)-1], RMS: math.Sqrt(sq / float64(len(rs)))}
}
