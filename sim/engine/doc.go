// Package engine is the discrete-event core: a queue of callbacks ordered by
// time, then by the order they were scheduled. That tie-break is what makes
// runs deterministic: two events at the same instant always fire in the same
// order, on every machine.
package engine
