// Package scenario holds the configuration of a run: plain structs with a
// comment on every field, a Validate method whose errors name the field and
// its allowed range, a strict YAML/JSON reader (unknown fields are errors),
// and the URL codec used by the browser app — one declarative table that
// both encodes and decodes the query string.
package scenario
