package gemm

import (
	"fmt"
	"strings"
)

// DType is the number format of a GEMM's inputs, which sets the tensor-core
// rate it runs at and the bytes each element moves.
type DType int

// The formats the model prices. The output is bf16 for bf16, fp16 and fp8
// inputs (accumulation is fp32 inside the kernel) and fp32 for tf32, as in
// the measured table (published/xla_matmul.txt).
const (
	BF16 DType = iota
	FP16
	TF32
	FP8
	numDTypes
)

var dtypeNames = [numDTypes]string{BF16: "bf16", FP16: "fp16", TF32: "tf32", FP8: "fp8"}

// String is the name ParseDType reads.
func (d DType) String() string {
	if d < 0 || d >= numDTypes {
		return fmt.Sprintf("dtype(%d)", int(d))
	}
	return dtypeNames[d]
}

// ParseDType reads "bf16", "fp16", "tf32" or "fp8" (case and surrounding
// spaces ignored); the error lists the allowed names.
func ParseDType(s string) (DType, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for d, name := range dtypeNames {
		if t == name {
			return DType(d), nil
		}
	}
	return 0, fmt.Errorf("gemm: dtype %q: want one of %s", s, strings.Join(dtypeNames[:], ", "))
}

// inBytes is the size of one input element.
func (d DType) inBytes() float64 {
	switch d {
	case FP8:
		return 1
	case TF32:
		return 4 // stored as fp32; the tensor core reads 19 of its bits
	default:
		return 2
	}
}

// outBytes is the size of one output element.
func (d DType) outBytes() float64 {
	if d == TF32 {
		return 4
	}
	return 2
}

func (d DType) valid() bool { return d >= 0 && d < numDTypes }
