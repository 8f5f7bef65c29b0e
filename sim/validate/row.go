package validate

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Row is one published measurement and how to simulate it.
type Row struct {
	// ID names the row: lower-case letters, digits, '.' and '-'; unique.
	// It is the row's anchor on the site and its name on the command line.
	ID string `yaml:"id" json:"id"`
	// Group is the table the row belongs to, e.g. "Megatron-LM 2021, Table 1".
	Group string `yaml:"group" json:"group"`
	// Title says what was measured, in a few words.
	Title string `yaml:"title" json:"title"`
	// Kind names the row kind that simulates it (see Kinds).
	Kind string `yaml:"kind" json:"kind"`
	// Config holds the kind's settings, each a string the kind reads.
	Config map[string]string `yaml:"config" json:"config"`
	// Published is the figure the source reports.
	Published Figure `yaml:"published" json:"published"`
	// Compare is how the simulated figure is judged: "relative" (empty, the
	// default: |simulated/published − 1| ≤ Tolerance) or "at_most" (the
	// simulated figure is itself an error statistic and must not pass the
	// published bound; Tolerance is then 0).
	Compare string `yaml:"compare" json:"compare"`
	// Tolerance is the largest relative error that holds, 0..1.
	Tolerance float64 `yaml:"tolerance" json:"tolerance"`
	// Enforced rows must hold their tolerance; the others are reported.
	Enforced bool `yaml:"enforced" json:"enforced"`
	// Why says why a row is not enforced (required then), or, for an
	// enforced row, anything a reader should know about its agreement.
	Why string `yaml:"why" json:"why,omitempty"`
	// Source is where the figure was published.
	Source Source `yaml:"source" json:"source"`
	// Confirmed says how the figure was checked against the source, and
	// says so when it could not be.
	Confirmed string `yaml:"confirmed" json:"confirmed"`
}

// Figure is a number with its unit.
type Figure struct {
	// Value is the number, > 0.
	Value float64 `yaml:"value" json:"value"`
	// Unit is what it counts, e.g. "TFLOP/s per GPU" or "GB/s".
	Unit string `yaml:"unit" json:"unit"`
}

// Source is a publication.
type Source struct {
	// Cite names the authors, title, venue and the table or thread.
	Cite string `yaml:"cite" json:"cite"`
	// URL links to it (https only).
	URL string `yaml:"url" json:"url"`
	// Says is the source's claim, in our words or quoted briefly.
	Says string `yaml:"says" json:"says"`
}

// Comparisons a row may ask for.
const (
	Relative = "relative"
	AtMost   = "at_most"
)

// MaxRowSize bounds a row file.
const MaxRowSize = 64 << 10

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,63}$`)

// ParseRow reads one row file: a YAML mapping with the fields of Row and no
// others. The error names the field at fault and what is allowed.
func ParseRow(data []byte) (Row, error) {
	var r Row
	if len(data) > MaxRowSize {
		return r, fmt.Errorf("row file is %d bytes; at most %d allowed", len(data), MaxRowSize)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&r); err != nil {
		return Row{}, fmt.Errorf("row: %w", err)
	}
	var extra any
	if err := dec.Decode(&extra); err == nil {
		return Row{}, errors.New("row: more than one YAML document; want one row per file")
	}
	if r.Compare == "" {
		r.Compare = Relative
	}
	return r, r.Validate()
}

// Validate checks every field, naming each bad one and its allowed range.
func (r Row) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, args...)))
	}
	if !idPattern.MatchString(r.ID) {
		bad("id", "is %q; want 1–64 of a-z, 0-9, '.', '-', starting with a letter or digit", r.ID)
	}
	for field, v := range map[string]string{"group": r.Group, "title": r.Title, "kind": r.Kind,
		"published.unit": r.Published.Unit, "source.cite": r.Source.Cite, "source.says": r.Source.Says,
		"confirmed": r.Confirmed} {
		if strings.TrimSpace(v) == "" {
			bad(field, "is empty; every row needs it")
		}
	}
	if !strings.HasPrefix(r.Source.URL, "https://") || strings.ContainsAny(r.Source.URL, " \"<>") {
		bad("source.url", "is %q; want an https:// address", r.Source.URL)
	}
	if v := r.Published.Value; !(v > 0) || math.IsInf(v, 0) {
		bad("published.value", "is %v; want a finite number > 0", v)
	}
	switch r.Compare {
	case Relative, "":
		if !(r.Tolerance > 0 && r.Tolerance <= 1) {
			bad("tolerance", "is %v; want 0 < tolerance ≤ 1 (a relative error)", r.Tolerance)
		}
	case AtMost:
		if r.Tolerance != 0 {
			bad("tolerance", "is %v; an at_most row's bound is published.value, so want 0", r.Tolerance)
		}
	default:
		bad("compare", "is %q; want %s or %s", r.Compare, Relative, AtMost)
	}
	if !r.Enforced && strings.TrimSpace(r.Why) == "" {
		bad("why", "is empty; a row that is not enforced must say why")
	}
	return errors.Join(errs...)
}

// configKeys lists a row's config keys, sorted, for messages.
func (r Row) configKeys() []string {
	keys := make([]string, 0, len(r.Config))
	for k := range r.Config {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
