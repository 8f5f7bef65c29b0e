package gemm

import (
	"fmt"
	"math"
	"slices"
)

// Errors summarises a model against measurements: the relative error of
// the modelled FLOP/s, (model − measured) / measured, as fractions.
type Errors struct {
	// N is the number of measurements compared.
	N int
	// Median is the median |error|.
	Median float64
	// P90 is the 90th percentile of |error| (linear between order
	// statistics).
	P90 float64
	// Max is the largest |error|.
	Max float64
	// MeanSigned is the mean signed error: positive when the model is
	// optimistic.
	MeanSigned float64
}

// String prints the errors in percent.
func (e Errors) String() string {
	return fmt.Sprintf("n=%d median %.1f%% p90 %.1f%% max %.1f%% mean signed %+.1f%%",
		e.N, 100*e.Median, 100*e.P90, 100*e.Max, 100*e.MeanSigned)
}

// Compare prices every measurement with m and summarises the errors; the
// caller chooses the measurements (one GPU's, one dtype's).
func Compare(m *Model, ms []Measurement) (Errors, error) {
	abs := make([]float64, 0, len(ms))
	var sum float64
	for _, x := range ms {
		t, err := m.Time(x.Shape, x.DType)
		if err != nil {
			return Errors{}, err
		}
		e := x.Shape.FLOPs()/t/x.FLOPS - 1
		abs = append(abs, math.Abs(e))
		sum += e
	}
	if len(abs) == 0 {
		return Errors{}, nil
	}
	slices.Sort(abs)
	return Errors{
		N: len(abs), Median: quantile(abs, 0.5), P90: quantile(abs, 0.9),
		Max: abs[len(abs)-1], MeanSigned: sum / float64(len(abs)),
	}, nil
}

// quantile of sorted xs, linear between order statistics.
func quantile(xs []float64, q float64) float64 {
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	f := pos - float64(i)
	return xs[i]*(1-f) + xs[i+1]*f
}
