package training

import (
	"paraplay/sim/cost"
	"paraplay/sim/scenario"
)

// Limits on the cost section.
const (
	// MaxGPUHour bounds cost.gpu_hour, in dollars.
	MaxGPUHour = 1e4
	// MaxPUE bounds cost.pue.
	MaxPUE = 5.0
	// MaxGrid bounds cost.grid_kg_per_kwh: no grid emits 2 kg per kWh.
	MaxGrid = 2.0
)

// Cost is the cost section: what a training run's time and energy cost
// (package cost). The summary prices the run to training.tokens with it.
type Cost struct {
	// GPUHour is dollars per GPU-hour, 0..MaxGPUHour; 0 takes each GPU
	// preset's assumed, illustrative rate (hw.GPU.Price).
	GPUHour float64
	// PUE is the facility's power usage effectiveness, 1..MaxPUE
	// (default cost.DefaultPUE).
	PUE float64
	// GridKgPerKWh is the grid's carbon intensity in kg CO₂ per kWh,
	// 0..MaxGrid (default cost.DefaultGridKgPerKWh, the world's in 2023).
	GridKgPerKWh float64
}

// costSection is the key of the cost settings, with their rows of the
// field table.
var costSection = scenario.Section{Name: "cost", Default: Cost{PUE: cost.DefaultPUE, GridKgPerKWh: cost.DefaultGridKgPerKWh},
	Rows: []scenario.Row{{Key: "gpu_hour", Param: "gpu_hour", Field: "GPUHour", Help: "dollars per GPU-hour; 0 = the preset's assumed rate"},
		{Key: "pue", Param: "pue", Field: "PUE", Help: "power usage effectiveness, e.g. 1.3"},
		{Key: "grid_kg_per_kwh", Param: "grid", Field: "GridKgPerKWh", Help: "kg CO₂ per kWh, e.g. 0.481"}}}

// CostSettings is s's cost section as package cost takes it.
func CostSettings(s *scenario.Scenario) cost.Settings {
	c := scenario.Get[Cost](s, costSection.Name)
	return cost.Settings{GPUHour: c.GPUHour, PUE: c.PUE, GridKgPerKWh: c.GridKgPerKWh}
}

// checkCost checks the cost section's ranges.
func checkCost(s *scenario.Scenario, bad scenario.Reporter) {
	c := CostSettings(s)
	if !(c.GPUHour >= 0 && c.GPUHour <= MaxGPUHour) {
		bad("cost.gpu_hour", "is %v; allowed 0..%v dollars per GPU-hour (0 = the preset's assumed rate)", c.GPUHour, MaxGPUHour)
	}
	if !(c.PUE >= 1 && c.PUE <= MaxPUE) {
		bad("cost.pue", "is %v; allowed 1..%v", c.PUE, MaxPUE)
	}
	if !(c.GridKgPerKWh >= 0 && c.GridKgPerKWh <= MaxGrid) {
		bad("cost.grid_kg_per_kwh", "is %v; allowed 0..%v kg CO₂ per kWh", c.GridKgPerKWh, MaxGrid)
	}
}
