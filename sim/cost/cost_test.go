package cost

import (
	"math"
	"strings"
	"testing"
)

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Abs(want) }

func TestPower(t *testing.T) {
	for _, tc := range []struct{ tdp, idle, busy, want float64 }{
		{700, 100, 0, 100}, {700, 100, 1, 700}, {700, 100, 0.5, 400}, {700, 100, 0.25, 250},
		{700, 100, -1, 100}, {700, 100, 2, 700}, // clamped
	} {
		if got := Power(tc.tdp, tc.idle, tc.busy); got != tc.want {
			t.Errorf("Power(%v, %v, %v) = %v, want %v", tc.tdp, tc.idle, tc.busy, got, tc.want)
		}
	}
}

// TestEstimateFollowsFormulas checks every figure of Of against its
// closed form on a worked example: 16,384 GPUs, 10 s an iteration of
// 2,048 × 8,192 tokens, 500 W each, $2.50 an hour, PUE 1.1, 0.4 kg/kWh,
// 15T tokens.
func TestEstimateFollowsFormulas(t *testing.T) {
	n := 16384.0
	it := Iteration{Seconds: 10, Tokens: 2048 * 8192, GPUs: int(n), Power: 500 * n, Idle: 100 * n, Price: 2.5 * n, Assumed: true}
	e := Of(it, 15e12, Settings{PUE: 1.1, GridKgPerKWh: 0.4})
	secs := 15e12 / (2048 * 8192) * 10 // 8.94e6 s
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"days", e.Days, secs / 86400},
		{"gpu_hours", e.GPUHours, n * secs / 3600},
		{"cost_usd", e.CostUSD, n * secs / 3600 * 2.5},
		{"energy_kwh", e.EnergyKWh, n * 500 * 1.1 * secs / 3.6e6},
		{"co2_kg", e.CO2Kg, n * 500 * 1.1 * secs / 3.6e6 * 0.4},
		{"power_per_gpu_w", e.PowerPerGPU, 500},
		{"gpu_hour_usd", e.GPUHour, 2.5},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// The worked example by hand: 8.94e6 s is 103.5 days, 40.7 M
	// GPU-hours, $102 M, 22.4 GWh and 8,950 t CO₂.
	if math.Abs(e.Days-103.5) > 0.1 || math.Abs(e.CostUSD/1e6-101.7) > 0.1 || math.Abs(e.EnergyKWh/1e6-22.38) > 0.01 {
		t.Errorf("worked example: %.1f days, $%.1f M, %.2f GWh; want 103.5, 101.7, 22.38", e.Days, e.CostUSD/1e6, e.EnergyKWh/1e6)
	}
}

func TestLongEstimateFollowsFormulas(t *testing.T) {
	it := Iteration{Seconds: 2, Tokens: 1e6, GPUs: 8, Power: 8 * 600, Idle: 8 * 100, Price: 8 * 2}
	// 100 h of wall time, 90 h of it training, 150,000 useful iterations.
	l := Long{Wall: 100 * 3600, Training: 90 * 3600, Iterations: 150000}
	e := OfLong(it, l, 3e11, Settings{PUE: 1.2, GridKgPerKWh: 0.5})
	joules := 4800.0*90*3600 + 800*10*3600
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"run_cost_usd", e.CostUSD, 16 * 100},
		{"run_energy_kwh", e.EnergyKWh, joules * 1.2 / 3.6e6},
		{"useful_tokens", e.UsefulTokens, 1.5e11},
		{"usd_per_million_useful_tokens", e.USDPerMillion, 1600 / 1.5e11 * 1e6},
		{"budget days", e.Budget.Days, 2 * 100 / 24.0},
		{"budget gpu_hours", e.Budget.GPUHours, 2 * 800},
		{"budget cost_usd", e.Budget.CostUSD, 3200},
		{"budget co2_kg", e.Budget.CO2Kg, 2 * joules * 1.2 / 3.6e6 * 0.5},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if e := OfLong(it, Long{Wall: 3600, Training: 3600}, 1e12, Settings{PUE: 1}); e.Budget != nil || e.USDPerMillion != 0 {
		t.Errorf("no useful work: %+v, want no budget and no price per token", e)
	}
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{{"15T", 15e12}, {"2.5B", 2.5e9}, {"2.5G", 2.5e9}, {"300M", 3e8}, {"1k", 1e3}, {"1P", 1e15}, {"0", 0}, {" 7 ", 7}, {"1e9", 1e9}} {
		got, err := ParseTokens(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseTokens(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "T", "-1T", "+5", "1x", "NaN", "Inf", "2e18", "1.5.2M", "1e400"} {
		if _, err := ParseTokens(bad); err == nil || !strings.Contains(err.Error(), "15T") {
			t.Errorf("ParseTokens(%q) = %v; want an error that shows the form", bad, err)
		}
	}
	for _, v := range []float64{0, 1, 999, 1e3, 15e12, 2.5e9, 1.234567e13, 123456789, 1e18, 3.3e-5} {
		s := FormatTokens(v)
		if back, err := ParseTokens(s); err != nil || back != v {
			t.Errorf("FormatTokens(%v) = %q, which reads back as %v, %v", v, s, back, err)
		}
	}
	if s := FormatTokens(15e12); s != "15T" {
		t.Errorf("FormatTokens(15e12) = %q, want 15T", s)
	}
}

// FuzzTokens: any text either fails to parse or reads back exactly from
// its formatted value, in range.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{"15T", "2.5B", "0", "1e9", "-1", "1x", "9.99999P"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseTokens(s)
		if err != nil {
			return
		}
		if !(v >= 0 && v <= MaxTokens) {
			t.Fatalf("ParseTokens(%q) = %v, outside 0..%v", s, v, MaxTokens)
		}
		if back, err := ParseTokens(FormatTokens(v)); err != nil || back != v {
			t.Fatalf("%q → %v → %q → %v, %v", s, v, FormatTokens(v), back, err)
		}
	})
}
