//go:build js

package hw

import "errors"

// The browser's GPUs and devices are the catalog's, which validate.go
// checks on the host; these stand-ins keep only what the simulator
// divides by or compares with, for the strategies' configurations
// (rlhf, split learning) that check a device before they use it.

// Validate reports whether g can run anything: positive peak FLOP/s,
// memory and memory bandwidth, an efficiency in (0, 1] and at least one
// GPU a node. The catalog's full check is validate.go's.
func (g GPU) Validate() error {
	if positive(g.PeakFLOPS) && g.HBM > 0 && positive(float64(g.HBMBandwidth)) && fraction(g.Efficiency) && g.GPUsPerNode >= 1 {
		return nil
	}
	return errors.New("hw: gpu " + g.Name + " is not a usable GPU")
}

// Validate reports whether d can run anything: positive peak FLOP/s and
// memory and an efficiency in (0, 1]. The catalog's full check is
// validate.go's.
func (d Device) Validate() error {
	if positive(d.PeakFLOPS) && d.Memory > 0 && fraction(d.Efficiency) {
		return nil
	}
	return errors.New("hw: device " + d.Name + " is not a usable device")
}
