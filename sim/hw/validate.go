//go:build !js

// The catalog's checks (links, GPUs, client devices) run on the host (the
// tests, the command line); the browser reads the entries they passed.
// They are exported methods of types that reach interfaces, which the
// linker would otherwise keep: leaving the links' out of the wasm saved
// about 12 KB of its code, the GPUs' and devices' 7 KB gzipped more
// (validate_js.go keeps what rlhf's and split learning's configurations
// check a device for).

package hw

import (
	"errors"
	"fmt"
)

// Validate reports every problem with l at once, joined.
func (l Link) Validate() error {
	var errs []error
	if l.SHARP && l.Kind != KindInfiniBand {
		errs = append(errs, fmt.Errorf("link %s: SHARP needs an InfiniBand link, not %s", l.Name, l.Kind))
	}
	if l.MeshPeers < 0 {
		errs = append(errs, fmt.Errorf("link %s: %d mesh peers must not be negative", l.Name, l.MeshPeers))
	}
	if err := validName(l.Name); err != nil {
		errs = append(errs, err)
	}
	if !knownKind(l.Kind) {
		errs = append(errs, fmt.Errorf("link %s: kind %q is not one of %v", l.Name, l.Kind, linkKinds))
	}
	if l.DisplayName == "" {
		errs = append(errs, fmt.Errorf("link %s: display name is empty", l.Name))
	}
	if !positive(float64(l.LineRate)) {
		errs = append(errs, fmt.Errorf("link %s: line rate %v must be positive", l.Name, l.LineRate))
	}
	if !fraction(l.Achievable) {
		errs = append(errs, fmt.Errorf("link %s: achievable fraction %v must be in (0, 1]", l.Name, l.Achievable))
	}
	if l.AchievableBasis == "" {
		errs = append(errs, fmt.Errorf("link %s: achievable fraction has no basis", l.Name))
	}
	if l.Latency < 0 {
		errs = append(errs, fmt.Errorf("link %s: latency %v must not be negative", l.Name, l.Latency))
	}
	if l.LatencyBasis == "" {
		errs = append(errs, fmt.Errorf("link %s: latency has no basis", l.Name))
	}
	if l.Source == "" {
		errs = append(errs, fmt.Errorf("link %s: no source for the line rate", l.Name))
	}
	errs = append(errs, l.validateMeasurement()...)
	return errors.Join(errs...)
}

// validateMeasurement checks the optional calibration point: a ring cannot
// move more than the line rate, and a number without a source is not data.
func (l Link) validateMeasurement() []error {
	var errs []error
	m := float64(l.MeasuredBusBW)
	switch {
	case m == 0 && l.MeasuredSource != "":
		errs = append(errs, fmt.Errorf("link %s: measured source given without a measured bus bandwidth", l.Name))
	case m == 0:
	case !positive(m):
		errs = append(errs, fmt.Errorf("link %s: measured bus bandwidth %v must be positive", l.Name, l.MeasuredBusBW))
	case l.MeasuredBusBW > l.LineRate:
		errs = append(errs, fmt.Errorf("link %s: measured bus bandwidth %v exceeds the line rate %v", l.Name, l.MeasuredBusBW, l.LineRate))
	case l.MeasuredSource == "":
		errs = append(errs, fmt.Errorf("link %s: measured bus bandwidth has no source", l.Name))
	}
	return errs
}

// Validate reports every problem with g at once, joined. It checks that Link
// is a well-formed name, not that it is in this catalog, so that callers can
// describe GPUs on links of their own.
func (g GPU) Validate() error {
	var errs []error
	if err := validName(g.Name); err != nil {
		errs = append(errs, err)
	}
	for _, f := range []struct{ what, v string }{
		{"vendor", g.Vendor}, {"display name", g.DisplayName}, {"efficiency basis", g.EfficiencyBasis},
		{"server", g.Server}, {"source", g.Source},
	} {
		if f.v == "" {
			errs = append(errs, fmt.Errorf("gpu %s: %s is empty", g.Name, f.what))
		}
	}
	if g.Precision != "bf16" && g.Precision != "fp16" {
		errs = append(errs, fmt.Errorf("gpu %s: precision %q must be bf16 or fp16", g.Name, g.Precision))
	}
	if !positive(g.PeakFLOPS) {
		errs = append(errs, fmt.Errorf("gpu %s: peak %v FLOP/s must be positive", g.Name, g.PeakFLOPS))
	}
	if g.PeakFP8 != 0 && !(positive(g.PeakFP8) && g.PeakFP8 >= g.PeakFLOPS) {
		errs = append(errs, fmt.Errorf("gpu %s: FP8 peak %v FLOP/s must be 0 (no FP8) or at least the %v of PeakFLOPS", g.Name, g.PeakFP8, g.PeakFLOPS))
	}
	if g.HBM <= 0 {
		errs = append(errs, fmt.Errorf("gpu %s: memory %v must be positive", g.Name, g.HBM))
	}
	if !positive(float64(g.HBMBandwidth)) {
		errs = append(errs, fmt.Errorf("gpu %s: memory bandwidth %v must be positive", g.Name, g.HBMBandwidth))
	}
	if !fraction(g.Efficiency) {
		errs = append(errs, fmt.Errorf("gpu %s: efficiency %v must be in (0, 1]", g.Name, g.Efficiency))
	}
	if err := validName(g.Link); err != nil {
		errs = append(errs, fmt.Errorf("gpu %s: link: %w", g.Name, err))
	}
	errs = append(errs, g.powerProblems()...)
	if g.GPUsPerNode < 1 {
		errs = append(errs, fmt.Errorf("gpu %s: %d GPUs per node, want at least 1", g.Name, g.GPUsPerNode))
	}
	return errors.Join(errs...)
}

// Validate reports every problem with d at once, joined.
func (d Device) Validate() error {
	var errs []error
	if err := validName(d.Name); err != nil {
		errs = append(errs, err)
	}
	if d.Kind != "board" && d.Kind != "phone" && d.Kind != "laptop" {
		errs = append(errs, fmt.Errorf("device %s: kind %q must be board, phone or laptop", d.Name, d.Kind))
	}
	for _, f := range []struct{ what, v string }{{"display name", d.DisplayName}, {"basis", d.Basis}, {"source", d.Source}} {
		if f.v == "" {
			errs = append(errs, fmt.Errorf("device %s: %s is empty", d.Name, f.what))
		}
	}
	if !positive(d.PeakFLOPS) {
		errs = append(errs, fmt.Errorf("device %s: peak %v FLOP/s must be positive", d.Name, d.PeakFLOPS))
	}
	if d.Memory <= 0 {
		errs = append(errs, fmt.Errorf("device %s: memory %v must be positive", d.Name, d.Memory))
	}
	if !fraction(d.Efficiency) {
		errs = append(errs, fmt.Errorf("device %s: efficiency %v must be in (0, 1]", d.Name, d.Efficiency))
	}
	return errors.Join(errs...)
}

// powerProblems are the problems with g's power and price: a GPU whose
// figures are missing or unphysical. The catalog's tests run it; the
// browser reads the catalog they passed.
func (g GPU) powerProblems() []error {
	var errs []error
	if !positive(g.TDP) || !(g.IdlePower > 0 && g.IdlePower < g.TDP) {
		errs = append(errs, fmt.Errorf("gpu %s: power: TDP %v W must be positive and idle %v W in (0, TDP)", g.Name, g.TDP, g.IdlePower))
	}
	if !positive(g.Price) {
		errs = append(errs, fmt.Errorf("gpu %s: price %v $/GPU-hour must be positive", g.Name, g.Price))
	}
	if g.PowerSource == "" || g.PriceBasis == "" {
		errs = append(errs, fmt.Errorf("gpu %s: power source is empty or price basis is empty", g.Name))
	}
	return errs
}
