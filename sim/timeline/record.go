package timeline

import (
	"fmt"
	"io"
	"slices"
)

// Record is a strategy's own part of a run's record, beside the core every
// run shares (spans, transfers, collectives, states, memory). It carries its
// own invariants into Validate and its own lines into the summary, so that a
// strategy adds a record without editing either. The built-in strategies'
// records sit in typed fields of Timeline (Async, Split, RLHF, Inference,
// and Training with its iterations); any other strategy's go in Extra.
type Record interface {
	// Check reports every way the record disagrees with the run it belongs to.
	Check(tl *Timeline) []error
	// Report is the record's part of the run's summary (nil when it adds none); s holds the core figures already computed.
	Report(tl *Timeline, s *Summary) Report
}

// Report is a record's part of a summary: lines for people (and, as a
// value, fields for --json).
type Report interface {
	// WriteText prints the report's lines, each indented by two spaces.
	WriteText(w io.Writer)
}

// builtin is a record that Timeline and Summary hold in typed fields: where
// to find it and where its report goes.
type builtin struct {
	// name prefixes the record's errors.
	name string
	// record is the run's record, nil when the run has none.
	record func(tl *Timeline) Record
	// keep stores the record's report in the summary's typed field.
	keep func(s *Summary, r Report)
	// report is that field as a Report, nil when it is empty.
	report func(s *Summary) Report
}

// builtins lists the typed records in the order Validate checks them and
// WriteText prints their reports.
var builtins = []builtin{
	{"rlhf",
		func(tl *Timeline) Record { return recordOrNil(tl.RLHF) },
		func(s *Summary, r Report) { s.RLHF, _ = r.(*RLHFSummary) },
		func(s *Summary) Report { return reportOrNil(s.RLHF) }},
	{"async",
		func(tl *Timeline) Record { return recordOrNil(tl.Async) },
		func(s *Summary, r Report) { s.Async, _ = r.(*AsyncSummary) },
		func(s *Summary) Report { return reportOrNil(s.Async) }},
	{"split",
		func(tl *Timeline) Record { return recordOrNil(tl.Split) },
		func(s *Summary, r Report) { s.Split, _ = r.(*SplitSummary) },
		func(s *Summary) Report { return reportOrNil(s.Split) }},
	{"inference",
		func(tl *Timeline) Record { return recordOrNil(tl.Inference) },
		func(s *Summary, r Report) { s.Inference, _ = r.(*InferenceSummary) },
		func(s *Summary) Report { return reportOrNil(s.Inference) }},
	{"training",
		func(tl *Timeline) Record {
			if tl.Training == nil && len(tl.Iterations)+len(tl.Recovery) == 0 {
				return nil
			}
			return trainingRecord{}
		},
		func(s *Summary, r Report) {
			if it, ok := r.(iterationsReport); ok {
				s.Iterations, s.Recovery = it.Iterations, it.Recovery
			}
		},
		func(s *Summary) Report {
			if len(s.Iterations) == 0 {
				return nil
			}
			return iterationsReport{s.Iterations, s.Recovery}
		}},
}

// recordOrNil turns a nil pointer into a nil Record (not a Record holding
// a nil pointer).
func recordOrNil[T any, P interface {
	*T
	Record
}](p P) Record {
	if p == nil {
		return nil
	}
	return p
}

// reportOrNil turns a nil pointer into a nil Report.
func reportOrNil[T any, P interface {
	*T
	Report
}](p P) Report {
	if p == nil {
		return nil
	}
	return p
}

// checkRecords runs every record's Check: the built-in ones, then Extra in
// sorted key order. Each error is prefixed by the record's name.
func (tl *Timeline) checkRecords() []error {
	var errs []error
	add := func(name string, r Record) {
		for _, err := range r.Check(tl) {
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
			}
		}
	}
	for _, b := range builtins {
		if r := b.record(tl); r != nil {
			add(b.name, r)
		}
	}
	for _, name := range sortedKeys(tl.Extra) {
		if r := tl.Extra[name]; r != nil {
			add(name, r)
		}
	}
	return errs
}

// reportRecords adds every record's report to s: the built-in ones to their
// typed fields, the others to s.Extra.
func (tl *Timeline) reportRecords(s *Summary) {
	for _, b := range builtins {
		if r := b.record(tl); r != nil {
			b.keep(s, r.Report(tl, s))
		}
	}
	for _, name := range sortedKeys(tl.Extra) {
		r := tl.Extra[name]
		if r == nil {
			continue
		}
		if rep := r.Report(tl, s); rep != nil {
			if s.Extra == nil {
				s.Extra = map[string]Report{}
			}
			s.Extra[name] = rep
		}
	}
}

// reports lists the summary's reports: the typed ones in the order of
// builtins, then Extra in sorted key order.
func (s *Summary) reports() []Report {
	var out []Report
	for _, b := range builtins {
		if r := b.report(s); r != nil {
			out = append(out, r)
		}
	}
	for _, name := range sortedKeys(s.Extra) {
		if r := s.Extra[name]; r != nil {
			out = append(out, r)
		}
	}
	return out
}

// sortedKeys is m's keys in order, so that a map is walked the same way
// every run.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
