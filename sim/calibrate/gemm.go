package calibrate

import (
	"fmt"
	"strings"

	"paraplay/sim/gemm"
	"paraplay/sim/hw"
	"paraplay/sim/kineto"
	"paraplay/sim/units"
)

// GEMMPoint is one host GEMM operator of a trace with its kernels' time
// and the model's time for its shape.
type GEMMPoint struct {
	// Label names the operator (shape, dtype) for the residuals' table.
	Label string `json:"label"`
	// Time is the measured time of its GEMM kernels, in seconds (a GEMM
	// may run as a main kernel and a split-K reduction or epilogue).
	Time float64 `json:"time_s"`
	// Launch and Body are the model's launch and the rest of its time.
	Launch float64 `json:"model_launch_s"`
	Body   float64 `json:"model_body_s"`
}

// GEMMFit is a GPU's fitted GEMM efficiency scale with its residuals.
type GEMMFit struct {
	// GPU is the preset the model priced the shapes on.
	GPU string `json:"gpu"`
	// Scale multiplies the model's efficiency: the model's body time ÷
	// Scale fits the measured times.
	Scale float64 `json:"scale"`
	// Points, Fitted (s) and Residuals ((fitted − measured)/measured),
	// and the model's own residuals before the fit.
	Points         []GEMMPoint `json:"points"`
	Fitted         []float64   `json:"fitted_s"`
	Residuals      []float64   `json:"residuals"`
	ModelResiduals []float64   `json:"model_residuals"`
	// Skipped counts GEMM kernels left out: no host operator with a shape
	// (record_shapes off), or a dtype the model does not price (fp32 on
	// CUDA cores).
	Skipped int `json:"skipped"`
}

// GEMMPoints prices each host GEMM operator of the trace's GEMM kernels
// on gpu with package gemm, its kernels' durations summed.
func GEMMPoints(t *kineto.Trace, gpu hw.GPU) (points []GEMMPoint, skipped int, err error) {
	m, err := gemm.For(gpu)
	if err != nil {
		return nil, 0, fmt.Errorf("calibrate: %w", err)
	}
	type opKey struct {
		thread int64
		start  units.Time
	}
	index := map[opKey]int{}
	for i := range t.Kernels {
		k := &t.Kernels[i]
		if k.Class != kineto.GEMM {
			continue
		}
		op, ok := t.GEMMOf(k)
		d, dok := dtypeOf(op.DType, t.KernelName(k))
		if !ok || !dok {
			skipped++
			continue
		}
		key := opKey{op.Thread, op.Start}
		if j, seen := index[key]; seen {
			points[j].Time += k.Dur().Seconds()
			continue
		}
		s := gemm.Shape{Batch: int(op.Batch), M: int(op.M), N: int(op.N), K: int(op.K)}
		tm, err := m.Time(s, d)
		if err != nil {
			skipped++
			continue
		}
		index[key] = len(points)
		points = append(points, GEMMPoint{Label: fmt.Sprintf("%d×%d×%d×%d %s", s.Batch, s.M, s.N, s.K, d),
			Time: k.Dur().Seconds(), Launch: m.Launch(), Body: tm - m.Launch()})
	}
	return points, skipped, nil
}

// dtypeOf is the model's dtype for a GEMM whose first input PyTorch calls
// typ, run by the kernel called kernel: fp32 inputs run as TF32 on tensor
// cores (the kernel's name says tensorop, tf32 or s1688), else on CUDA
// cores, which the model does not price.
func dtypeOf(typ, kernel string) (gemm.DType, bool) {
	t := strings.ToLower(strings.TrimPrefix(typ, "c10::"))
	switch {
	case t == "bfloat16":
		return gemm.BF16, true
	case t == "half" || t == "float16":
		return gemm.FP16, true
	case strings.HasPrefix(t, "float8"):
		return gemm.FP8, true
	case t == "float":
		k := strings.ToLower(kernel)
		for _, s := range []string{"tensorop", "tf32", "s1688", "s16816"} {
			if strings.Contains(k, s) {
				return gemm.TF32, true
			}
		}
	}
	return 0, false
}

// FitGEMM fits the scale s of gpu's GEMM efficiency: u = 1/s minimising
// Σ((L + u·b − t)/t)², u = Σ b(t − L)/t² ÷ Σ b²/t², held to
// [hw.MinGEMMScale, hw.MaxGEMMScale].
func FitGEMM(gpu string, points []GEMMPoint, skipped int) (GEMMFit, error) {
	if len(points) == 0 {
		return GEMMFit{}, fmt.Errorf("calibrate: no GEMM with a shape to fit on %s (%d GEMM kernels without one: profile with record_shapes=True)", gpu, skipped)
	}
	var num, den float64
	for _, p := range points {
		w := 1 / (p.Time * p.Time)
		num += w * p.Body * (p.Time - p.Launch)
		den += w * p.Body * p.Body
	}
	if !(num > 0 && den > 0) {
		return GEMMFit{}, fmt.Errorf("calibrate: the GEMMs on %s ran no longer than their launch: no scale to fit", gpu)
	}
	scale := min(max(den/num, hw.MinGEMMScale), hw.MaxGEMMScale)
	f := GEMMFit{GPU: gpu, Scale: scale, Points: points, Skipped: skipped}
	for _, p := range points {
		t := p.Launch + p.Body/scale
		f.Fitted = append(f.Fitted, t)
		f.Residuals = append(f.Residuals, (t-p.Time)/p.Time)
		f.ModelResiduals = append(f.ModelResiduals, (p.Launch+p.Body-p.Time)/p.Time)
	}
	return f, nil
}

// presetNames maps words of a CUDA device's name to GPU presets, most
// specific first; a memory size picks among an A100's two.
var presetNames = []struct{ word, preset string }{
	{"GB200", "gb200"}, {"B200", "b200"}, {"H200", "h200"}, {"H800", "h800"}, {"H20", "h20"},
	{"H100 PCIE", "h100-pcie"}, {"H100", "h100-sxm"}, {"A10G", "a10g"}, {"V100", "v100-sxm"},
	{"T4", "t4"}, {"MI325X", "mi325x"}, {"MI300X", "mi300x"},
}

// Preset is the GPU preset of a CUDA device called name with memory
// bytes ("NVIDIA A100-SXM4-80GB"), and whether one matches.
func Preset(name string, memory units.Bytes) (string, bool) {
	up := strings.ToUpper(name)
	if strings.Contains(up, "A100") {
		if memory > 60*units.GiB || strings.Contains(up, "80GB") {
			return "a100-sxm-80gb", true
		}
		return "a100-sxm-40gb", true
	}
	for _, p := range presetNames {
		if strings.Contains(up, p.word) {
			return p.preset, true
		}
	}
	return "", false
}
