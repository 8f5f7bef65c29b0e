package training

import (
	"testing"

	"paraplay/sim/gemm"
	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// bf16StepBytes is the HBM traffic per parameter of a bf16 optimizer step,
// counted by hand from Megatron-LM's Float16OptimizerWithFloat16Params:
// Adam's 16 bytes read and 12 written, the gradient norm's 4 read, the
// master-to-model weight copy's 4 read and 2 written, and the 4-byte
// main-gradient buffer zeroed.
const bf16StepBytes = 16 + 12 + 4 + 4 + 2 + 4

// optimizerClosedForm is the optimizer step of psi parameters on gpu:
// bytes·psi over the bandwidth a streaming kernel reaches there (the
// datasheet HBM bandwidth times the GPU's catalogued streaming fraction).
func optimizerClosedForm(t *testing.T, gpu hw.GPU, psi, bytes float64) units.Time {
	t.Helper()
	p, err := gemm.Lookup(gpu.Name)
	if err != nil {
		t.Fatal(err)
	}
	return units.Round(bytes * psi / (float64(gpu.HBMBandwidth) * p.HBMEfficiency))
}

// TestStepBytes: the per-parameter traffic of the step in each precision
// and accumulation mode, counted by hand: bf16 42 (with fused or unfused
// accumulation, both into an fp32 main gradient), fp16 50 with fused
// accumulation (8 more to unscale the gradients and check them for
// infinities) and 52 with unfused accumulation (the fp16 gradients copied
// into new fp32 ones, 2 read and 4 written, instead of a zeroed buffer).
func TestStepBytes(t *testing.T) {
	for _, c := range []struct {
		fp16, unfused bool
		want          float64
	}{
		{false, false, bf16StepBytes},
		{false, true, bf16StepBytes},
		{true, false, bf16StepBytes + 4 + 4},
		{true, true, bf16StepBytes + 4 + 4 - 4 + 2 + 4},
	} {
		if got := stepBytes(c.fp16, c.unfused); got != c.want {
			t.Errorf("fp16 %v, unfused %v: %v bytes per parameter, want %v", c.fp16, c.unfused, got, c.want)
		}
	}
}
