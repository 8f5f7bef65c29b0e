//go:build !js

package hw

import (
	"errors"
	"fmt"
)

// The catalog's checks run on the host (its tests, the CLI); the browser
// build, whose catalog is the same, leaves them out of the wasm.

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
