package gemm

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Measurement is one published GEMM throughput: a shape on a GPU in a
// dtype, and the FLOP/s it ran at.
type Measurement struct {
	// GPU is the hw catalog name of the GPU measured.
	GPU string
	// Shape is the GEMM measured.
	Shape Shape
	// DType is its input format.
	DType DType
	// FLOPS is the measured rate, 2·b·m·n·k over the measured time.
	FLOPS float64
}

// measuredColumns are the dtype columns of a measurement table, in order.
var measuredColumns = [...]DType{BF16, TF32, FP8}

// ParseMeasurements reads a table of lines "gpu b m n k bf16 tf32 fp8"
// (rates in FLOP/s, "-" for none; '#' starts a comment line), the format
// of published/xla_matmul.txt. An error names the line and the field.
func ParseMeasurements(data []byte) ([]Measurement, error) {
	var out []Measurement
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 5+len(measuredColumns) {
			return nil, fmt.Errorf("gemm: measurements line %d: %d fields, want gpu b m n k bf16 tf32 fp8", line, len(f))
		}
		var dims [4]int
		for i, name := range []string{"b", "m", "n", "k"} {
			v, err := strconv.Atoi(f[1+i])
			if err != nil || v < 1 || v > maxDim {
				return nil, fmt.Errorf("gemm: measurements line %d: %s %q: want an integer from 1 to %d", line, name, f[1+i], maxDim)
			}
			dims[i] = v
		}
		s := Shape{Batch: dims[0], M: dims[1], N: dims[2], K: dims[3]}
		for i, d := range measuredColumns {
			cell := f[5+i]
			if cell == "-" {
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("gemm: measurements line %d: %s rate %q: want a positive FLOP/s or -", line, d, cell)
			}
			out = append(out, Measurement{GPU: f[0], Shape: s, DType: d, FLOPS: v})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("gemm: measurements: %w", err)
	}
	return out, nil
}
