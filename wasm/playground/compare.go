package playground

import (
	"net/url"

	"paraplay/sim/scenario"
)

// CompareSides are the parameters of compare mode, play.html?a=<query>&b=<query>:
// each holds the query of one run, shown side by side on one clock.
var CompareSides = []string{"a", "b"}

// IsCompare reports whether q asks for compare mode (sets a= or b=).
func IsCompare(q url.Values) bool {
	_, a := q["a"]
	_, b := q["b"]
	return a || b
}

// NestedCompare is the error for a run whose own query is a compare query:
// compare mode is one level deep, because each side is a whole app (about
// 130 MB) and a nested link would start 2^depth of them — a 513-character
// link reached 16 apps and 2 GB. The app shows it over the canvas of the
// side that asked; nil when q is an ordinary run.
func NestedCompare(q url.Values) error {
	if !IsCompare(q) {
		return nil
	}
	side := "a"
	if _, ok := q["a"]; !ok {
		side = "b"
	}
	return &scenario.FieldError{Field: side, Msg: "is a compare query inside a compare query (or an embed); " +
		"compare mode shows two ordinary runs and does not nest: open play.html?a=<run>&b=<run> with runs that set no a= or b="}
}
