//go:build !js

package cost

// The sources of the defaults, for the command line, the docs and the
// tests; the browser shows none (left out of the wasm).
const (
	// PUESource is DefaultPUE's.
	PUESource = "Uptime Institute, Global Data Center Survey 2024 (as reported by cloudnews.tech): new, large facilities reach a PUE of 1.3 or better, against an industry average of 1.58 in 2023 (Uptime Intelligence, 'Large data centers are mostly more efficient, analysis confirms', 2023). 1.3 is taken for an AI training cluster; set cost.pue for yours"
	// GridSource is DefaultGridKgPerKWh's.
	GridSource = "Ember, electricity generation emission intensity in 2023: world 481 gCO₂/kWh (Ember data of July 2024, as transcribed by Statista); set cost.grid_kg_per_kwh for your grid (e.g. France 56, Germany 381, India 713 g/kWh in 2023, Ember via Our World in Data)"
)
