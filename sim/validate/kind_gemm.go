package validate

import (
	"fmt"

	"paraplay/sim/gemm"
	"paraplay/sim/gemm/published"
	"paraplay/sim/hw"
)

// gemmSummaryKind is the GEMM model (package gemm) against the measured
// table of matmul throughput by shape it was fitted to and is tested
// against (published.Table: openxla/xla's matmul_interpolator_data.h, H100
// and B200): a row's figure is a statistic of the model's |error| over
// every measured shape of one GPU and dtype, in percent, held at_most the
// bound the row gives.
func gemmSummaryKind() Kind {
	return Kind{
		Name:     "gemm-table-summary",
		What:     "the GEMM efficiency model over a measured table of shapes; a statistic of |error| in percent",
		Required: []string{"gpu", "dtype", "statistic"},
		Simulate: func(c map[string]string) (float64, error) {
			g, err := hw.LookupGPU(c["gpu"])
			if err != nil {
				return 0, fmt.Errorf("gpu: %w", err)
			}
			d, err := gemm.ParseDType(c["dtype"])
			if err != nil {
				return 0, fmt.Errorf("dtype: %w", err)
			}
			m, err := gemm.For(g)
			if err != nil {
				return 0, err
			}
			all, err := published.Table()
			if err != nil {
				return 0, err
			}
			var ms []gemm.Measurement
			for _, x := range all {
				if x.GPU == g.Name && x.DType == d {
					ms = append(ms, x)
				}
			}
			if len(ms) == 0 {
				return 0, fmt.Errorf("the table has no %s measurements on %s", d, g.Name)
			}
			e, err := gemm.Compare(m, ms)
			if err != nil {
				return 0, err
			}
			switch c["statistic"] {
			case "median":
				return 100 * e.Median, nil
			case "p90":
				return 100 * e.P90, nil
			}
			return 0, fmt.Errorf("statistic: %q; want median or p90", c["statistic"])
		},
	}
}
