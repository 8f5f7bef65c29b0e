package scenario

import "paraplay/sim/cost"

// tokensField is training.tokens' row: the token budget that turns a
// training iteration into days, GPU-hours, dollars and energy (package
// cost; the training strategy owns the cost section that prices it).
var tokensField = Field{"training.tokens", "tokens", "a token budget, e.g. 15T (k, M, B, T, P); 0 = none",
	func(s *Scenario) string { return cost.FormatTokens(s.Training.Tokens) },
	func(s *Scenario, v string) error { return assign(&s.Training.Tokens, v, cost.ParseTokens) }}

// validateTokens checks training.tokens: in range, and set only in
// training runs.
func (s *Scenario) validateTokens(bad Reporter) {
	if t := s.Training.Tokens; !(t >= 0 && t <= cost.MaxTokens) {
		bad("training.tokens", "is %v; allowed 0..1e18 tokens (0 = none)", t)
	}
	s.exclusive("training.tokens", s.Training.Tokens != 0, "applies to %s runs; strategy is %s", bad)
}
