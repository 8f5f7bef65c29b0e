//go:build js

package validate

// simulateTPUCollective: the torus collective is host-only (sim/nccltest).
func simulateTPUCollective(map[string]string) (float64, error) { return 0, ErrPending }
