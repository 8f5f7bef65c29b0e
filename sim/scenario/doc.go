// Package scenario decodes the configuration of a run: plain structs with
// a comment on every field, a strict YAML/JSON reader (unknown keys are
// errors naming their line), and the URL codec used by the browser app —
// one declarative table of fields (Field) that both encodes and decodes.
//
// It knows the keys every strategy shares and the shared sections several
// read (model, parallel, sync, faults, …). A strategy's own keys and its
// checks come from its package through Kind, handed to Register by the
// registry in package run; so this package imports no strategy, and a new
// strategy adds its section (Section, Row) without editing it. Validate
// checks the shared keys and asks the scenario's Kind for the rest; every
// problem is a *FieldError naming the YAML key and what it allows.
package scenario
