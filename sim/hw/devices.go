package hw

import (
	"fmt"
	"math"
	"strings"

	"paraplay/sim/units"
)

// Device is a client device of split or federated learning: a phone, a
// laptop or an edge board that trains the first layers of a model (or a
// whole small model) on its own data. It is no data-centre accelerator:
// it computes in fp32 on a CPU or a small GPU, shares its memory with its
// operating system, and reaches the servers over a slow uplink, which the
// scenario sets (split.uplink), not the catalog.
type Device struct {
	// The blank field makes the type incomparable, so the compiler generates no
	// equality code for it and for each catalog array literal of it (about
	// 7 KB of the gzipped wasm); compare presets by Name.
	_ [0]func()
	// Name is the preset's key, lower case with hyphens ("raspberry-pi-5").
	Name string `json:"name"`
	// Kind says what it is: "board", "phone" or "laptop".
	Kind string `json:"kind"`
	// DisplayName is the product (or the class of product) a reader knows.
	DisplayName string `json:"display_name"`
	// PeakFLOPS is the peak fp32 throughput in FLOP/s. Where the vendor
	// prints no such figure it is derived (cores × clock × FLOPs per cycle)
	// and Source shows the arithmetic.
	PeakFLOPS float64 `json:"peak_flops"`
	// Memory is the RAM training may use (shared with the OS on all of
	// these; the catalog lists the whole RAM).
	Memory units.Bytes `json:"memory_bytes"`
	// Efficiency is the ASSUMED fraction of PeakFLOPS that training
	// reaches, in (0, 1]; Basis says why.
	Efficiency float64 `json:"efficiency"`
	// Basis explains Efficiency.
	Basis string `json:"basis"`
	// Source cites where PeakFLOPS and Memory come from, or labels them
	// ILLUSTRATIVE when the entry stands for a class of devices.
	Source string `json:"source"`
}

// FLOPS is the sustained rate the simulator charges: PeakFLOPS × Efficiency.
func (d Device) FLOPS() float64 { return d.PeakFLOPS * d.Efficiency }

// ComputeTime is flops / (PeakFLOPS × Efficiency), rounded once by
// units.Round. It panics on a negative or non-finite count, which callers
// validate first.
func (d Device) ComputeTime(flops float64) units.Time {
	if !(flops >= 0) || math.IsInf(flops, 0) {
		panic(fmt.Sprintf("hw: %s: FLOP count %v must be finite and non-negative", d.Name, flops))
	}
	return units.Round(flops / d.FLOPS())
}

// effEdge is the basis of every client device's efficiency: none is
// measured here.
const effEdge = "ASSUMPTION, not measured: small convolutions in fp32 on a CPU or a small GPU reach a low fraction of peak; 0.2–0.3 is a guess."

// Devices returns the client-device catalog sorted by name; every call
// builds a fresh slice.
func Devices() []Device {
	ds := []Device{
		{
			Name: "raspberry-pi-5", Kind: "board", DisplayName: "Raspberry Pi 5 (8 GB)",
			PeakFLOPS: 153.6e9, Memory: 8 * units.GiB, Efficiency: 0.2, Basis: cite(effEdge),
			Source: cite("Raspberry Pi 5 product brief: Broadcom BCM2712, quad-core Arm Cortex-A76 at 2.4 GHz, 8 GB LPDDR4X. DERIVED peak: 4 cores × 2.4 GHz × 16 fp32 FLOP/cycle (two 128-bit NEON FMA pipes per core, Arm Cortex-A76 Software Optimization Guide) = 153.6 GFLOP/s"),
		},
		{
			Name: "jetson-orin-nano", Kind: "board", DisplayName: "NVIDIA Jetson Orin Nano 8GB",
			PeakFLOPS: 1.28e12, Memory: 8 * units.GiB, Efficiency: 0.3, Basis: cite(effEdge),
			Source: cite("NVIDIA Jetson Orin Nano Series datasheet: 1024-core Ampere GPU at up to 625 MHz, 8 GB LPDDR5. DERIVED peak: 1024 cores × 2 FLOP (FMA) × 625 MHz = 1.28 TFLOP/s fp32"),
		},
		{
			Name: "phone", Kind: "phone", DisplayName: "a recent smartphone (illustrative)",
			PeakFLOPS: 1e12, Memory: 8 * units.GiB, Efficiency: 0.2, Basis: cite(effEdge),
			Source: cite("ILLUSTRATIVE, not a product: a round 1 TFLOP/s fp32 for a recent phone GPU and 8 GB of RAM shared with the OS; no datasheet checked"),
		},
		{
			Name: "laptop", Kind: "laptop", DisplayName: "an 8-core laptop CPU (illustrative)",
			PeakFLOPS: 768e9, Memory: 16 * units.GiB, Efficiency: 0.25, Basis: cite(effEdge),
			Source: cite("ILLUSTRATIVE, not a product: 8 cores × 3 GHz × 32 fp32 FLOP/cycle (AVX2: two 8-lane FMA units) = 768 GFLOP/s, 16 GB of RAM"),
		},
	}
	sortDevices(ds)
	return ds
}

// LookupDevice returns the client device called name; the error of an
// unknown name lists the known ones.
func LookupDevice(name string) (Device, error) {
	all := Devices()
	names := make([]string, len(all))
	for i, d := range all {
		if d.Name == name {
			return d, nil
		}
		names[i] = d.Name
	}
	return Device{}, fmt.Errorf("hw: unknown client device %q (known: %s)", name, strings.Join(names, ", "))
}
