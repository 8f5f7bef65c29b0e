package cost

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Defaults of the scenario's cost keys, with their sources (PUESource,
// GridSource).
const (
	// DefaultPUE is cost.pue's default: total facility energy over IT
	// energy of a modern large data centre.
	DefaultPUE = 1.3
	// DefaultGridKgPerKWh is cost.grid_kg_per_kwh's default: the world
	// average carbon intensity of electricity generation in 2023.
	DefaultGridKgPerKWh = 0.481
	// MaxTokens bounds training.tokens: a quintillion.
	MaxTokens = 1e18
)

// Settings are a scenario's cost keys.
type Settings struct {
	// GPUHour is the dollars per GPU-hour of every GPU, 0 for each
	// preset's assumed rate.
	GPUHour float64
	// PUE is the facility's power usage effectiveness, ≥ 1.
	PUE float64
	// GridKgPerKWh is the grid's carbon intensity in kg CO₂ per kWh, ≥ 0.
	GridKgPerKWh float64
}

// Rating is one GPU's power and price: its preset's TDP and idle power in
// watts and its dollars per GPU-hour.
type Rating struct{ TDP, Idle, Price float64 }

// Power is the board power of a GPU busy a fraction busy of the time:
// idle + (TDP − idle) × busy, busy clamped to [0, 1].
func Power(tdp, idle, busy float64) float64 {
	return idle + (tdp-idle)*min(1, max(0, busy))
}

// Iteration is what the estimate needs from one simulated iteration.
type Iteration struct {
	// Seconds is the iteration time.
	Seconds float64
	// Tokens is the tokens one iteration trains on (global batch ×
	// sequence length).
	Tokens float64
	// GPUs is the number of GPUs.
	GPUs int
	// Power is the sum over GPUs of their board power in watts
	// during the iteration (Power of each GPU's busy fraction).
	Power float64
	// Idle is the sum over GPUs of their idle power in watts.
	Idle float64
	// Price is the sum over GPUs of their dollars per GPU-hour.
	Price float64
	// Assumed says Price is the presets' assumed rates, not a setting.
	Assumed bool
}

// Estimate is what training to a token budget costs.
type Estimate struct {
	// Tokens is the budget, training.tokens.
	Tokens float64 `json:"training_tokens"`
	// Days is the wall time to train them.
	Days float64 `json:"days"`
	// GPUHours is GPUs × wall time in hours.
	GPUHours float64 `json:"gpu_hours"`
	// CostUSD is the GPUs' rent over the wall time.
	CostUSD float64 `json:"cost_usd"`
	// EnergyKWh is the facility's energy: the boards' × PUE.
	EnergyKWh float64 `json:"energy_kwh"`
	// CO2Kg is EnergyKWh × the grid's intensity.
	CO2Kg float64 `json:"co2_kg"`
	// PowerPerGPU is the mean board power per GPU in watts.
	PowerPerGPU float64 `json:"power_per_gpu_w"`
	// GPUHour is the mean price per GPU-hour; Assumed says it is the
	// presets' assumed rate.
	GPUHour float64 `json:"gpu_hour_usd"`
	Assumed bool    `json:"gpu_hour_assumed"`
	// PUE and GridKgPerKWh are the settings used.
	PUE          float64 `json:"pue"`
	GridKgPerKWh float64 `json:"grid_kg_per_kwh"`
}

// Of prices tokens of training at it's pace under s (formulas in the
// package doc).
func Of(it Iteration, tokens float64, s Settings) Estimate {
	e := Estimate{Tokens: tokens, PUE: s.PUE, GridKgPerKWh: s.GridKgPerKWh, Assumed: it.Assumed}
	if it.GPUs <= 0 || it.Tokens <= 0 {
		return e
	}
	secs := tokens / it.Tokens * it.Seconds
	n := float64(it.GPUs)
	e.Days = secs / 86400
	e.GPUHours = n * secs / 3600
	e.CostUSD = it.Price * secs / 3600
	e.EnergyKWh = it.Power * s.PUE * secs / 3.6e6
	e.CO2Kg = e.EnergyKWh * s.GridKgPerKWh
	e.PowerPerGPU = it.Power / n
	e.GPUHour = it.Price / n
	return e
}

// ParseTokens reads a token count ≥ 0 with an optional suffix k (10³), M
// (10⁶), B or G (10⁹), T (10¹²) or P (10¹⁵): "15T", "2.5B", "1e9".
func ParseTokens(text string) (float64, error) {
	v := strings.TrimSpace(text)
	mult := 1.0
	if n := len(v); n > 0 {
		if i := strings.IndexByte("kMBGTP", v[n-1]); i >= 0 {
			mult, v = [...]float64{1e3, 1e6, 1e9, 1e9, 1e12, 1e15}[i], v[:n-1]
		}
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || v == "" || v[0] == '+' || v[0] == '-' || !(f*mult >= 0 && f*mult <= MaxTokens) {
		return 0, fmt.Errorf("invalid token count %q: want a number ≥ 0 with k, M, B, T or P, e.g. 15T (at most 1e18)", text)
	}
	return f * mult, nil
}

// FormatTokens writes a token count as ParseTokens reads it back exactly:
// "15T", "2.5B", "0".
func FormatTokens(v float64) string {
	for _, u := range []struct {
		div    float64
		suffix string
	}{{1e15, "P"}, {1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= u.div {
			s := strconv.FormatFloat(v/u.div, 'g', -1, 64) + u.suffix
			if back, err := ParseTokens(s); err == nil && back == v {
				return s
			}
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Short writes v to three significant digits with k, M, G or T: "37.4 M".
func Short(v float64) string {
	for _, u := range []struct {
		div    float64
		suffix string
	}{{1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"}} {
		if math.Abs(v) >= u.div {
			return sig3(v/u.div) + u.suffix
		}
	}
	return sig3(v)
}

// sig3 writes v to three significant digits (at least the integer part).
func sig3(v float64) string {
	prec := 2
	switch a := math.Abs(v); {
	case a >= 99.95:
		prec = 0
	case a >= 9.995:
		prec = 1
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}
