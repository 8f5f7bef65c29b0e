//go:build !js

// The link catalog's checks run on the host (the tests, the command line); the
// browser reads the links they passed, and leaving the checks out of
// the wasm saves about 12 KB of its code (they are exported methods of
// types that reach interfaces, which the linker would otherwise keep).

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

// powerProblems are the problems with g's power and price: a GPU whose
// figures are missing or unphysical. The catalog's tests run it; the
// browser reads the catalog they passed (power_js.go).
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
