package validate

// gemmSummaryKind is the GEMM model against a measured table of matmul
// throughput by shape (issue 20: the H100 and B200 tables of
// openxla/xla's matmul_interpolator_data.h): a row's figure is a statistic
// of the model's |error| over every measured shape, in percent, held
// at_most the bound the row publishes.
//
// The GEMM efficiency model is being written; until it lands this kind
// returns ErrPending and its rows are listed as pending. Filling it is
// this one function: read config (gpu, dtype, statistic: median or p90),
// price every shape of the table with the model, return the statistic.
func gemmSummaryKind() Kind {
	return Kind{
		Name:     "gemm-table-summary",
		What:     "the GEMM efficiency model over a measured table of shapes; a statistic of |error| in percent",
		Required: []string{"gpu", "dtype", "statistic"},
		Optional: []string{"table"},
		Simulate: func(map[string]string) (float64, error) { return 0, ErrPending },
	}
}
