package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strings"
	"testing"
)

// TestPlanCost: with --tokens, --gpu-hour and --pue each simulated plan's
// JSON carries what the budget costs, and the figures follow package
// cost's formulas from the plan's own iteration time: days = tokens ÷
// (global batch × seq len) × iteration ÷ 86,400, GPU-hours = GPUs × days
// × 24, dollars = rate × GPU-hours, energy = power × PUE × time.
func TestPlanCost(t *testing.T) {
	var out, errOut bytes.Buffer
	args := append(smallPlan, "--json", "--top", "2", "--quiet", "--tokens", "2.5B", "--gpu-hour", "2", "--pue", "1.1", "--grid-kg-per-kwh", "0.2")
	if code := Main(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got struct {
		Plans []struct {
			Iteration float64 `json:"iteration_time_s"`
			Cost      *struct {
				Tokens   float64 `json:"training_tokens"`
				Days     float64 `json:"days"`
				GPUHours float64 `json:"gpu_hours"`
				USD      float64 `json:"cost_usd"`
				KWh      float64 `json:"energy_kwh"`
				CO2      float64 `json:"co2_kg"`
				Watts    float64 `json:"power_per_gpu_w"`
				Rate     float64 `json:"gpu_hour_usd"`
				Assumed  bool    `json:"gpu_hour_assumed"`
				PUE      float64 `json:"pue"`
			} `json:"cost"`
		} `json:"plans"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Plans) == 0 {
		t.Fatal("no plans")
	}
	const gpus, tokensPerIteration = 8, 16 * 2048
	for i, p := range got.Plans {
		c := p.Cost
		if c == nil {
			t.Fatalf("plan %d has no cost", i+1)
		}
		secs := 2.5e9 / tokensPerIteration * p.Iteration
		for _, f := range []struct {
			name      string
			got, want float64
		}{
			{"training_tokens", c.Tokens, 2.5e9},
			{"days", c.Days, secs / 86400},
			{"gpu_hours", c.GPUHours, gpus * secs / 3600},
			{"cost_usd", c.USD, 2 * gpus * secs / 3600},
			{"energy_kwh", c.KWh, c.Watts * gpus * 1.1 * secs / 3.6e6},
			{"co2_kg", c.CO2, 0.2 * c.KWh},
		} {
			if math.Abs(f.got-f.want) > 1e-9*math.Abs(f.want) {
				t.Errorf("plan %d: %s = %v; want %v", i+1, f.name, f.got, f.want)
			}
		}
		if c.Rate != 2 || c.Assumed || c.PUE != 1.1 || c.Watts < 100 || c.Watts > 700 {
			t.Errorf("plan %d: rate %v (assumed %v), PUE %v, %v W per GPU; want $2 set, PUE 1.1, between H100's idle and TDP", i+1, c.Rate, c.Assumed, c.PUE, c.Watts)
		}
	}
}

// TestPlanCostBadFlags: each cost flag out of range is named.
func TestPlanCostBadFlags(t *testing.T) {
	base := []string{"plan", "--model", "llama3-8b", "--gpus", "8", "--global-batch", "8"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--tokens", "lots"}, "--tokens"},
		{[]string{"--tokens", "-5T"}, "--tokens"},
		{[]string{"--pue", "0.5"}, "--pue"},
		{[]string{"--gpu-hour", "-1"}, "--gpu-hour"},
		{[]string{"--grid-kg-per-kwh", "9"}, "--grid-kg-per-kwh"},
	} {
		var errOut bytes.Buffer
		args := append(append([]string{}, base...), c.args...)
		if code := Main(args, io.Discard, &errOut); code != exitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d naming %q", c.args, code, errOut.String(), exitUsage, c.want)
		}
	}
}
