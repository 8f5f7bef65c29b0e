package scenario

import "math/rand/v2"

// Rand is a run's source of randomness: math/rand/v2's PCG seeded from Seed
// alone (the second word is Seed xor the 64-bit golden ratio, so that the
// two words differ), so the same scenario draws the same numbers on every
// machine.
func (s *Scenario) Rand() *rand.Rand {
	return rand.New(rand.NewPCG(s.Seed, s.Seed^0x9e3779b97f4a7c15))
}
