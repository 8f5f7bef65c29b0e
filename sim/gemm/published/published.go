package published

import (
	_ "embed" // the measured tables, compiled into the tools that compare against them

	"paraplay/sim/gemm"
)

// xlaTable is xla_matmul.txt, whose header names its source.
//
//go:embed xla_matmul.txt
var xlaTable string

// cookbookTable is cookbook_a100.txt: an A100's measured GEMMs, whose
// header names its source and what is unconfirmed about it.
//
//go:embed cookbook_a100.txt
var cookbookTable string

// Table returns the measured GEMM throughputs package gemm was fitted to
// and is tested against (xla_matmul.txt: XLA's H100, B200 and MI300X
// measurements; cookbook_a100.txt: an A100's), freshly parsed.
func Table() ([]gemm.Measurement, error) {
	return gemm.ParseMeasurements([]byte(Text()))
}

// Text is the two tables as one text in gemm.ParseMeasurements' format.
func Text() string { return xlaTable + "\n" + cookbookTable }
