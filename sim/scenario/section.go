package scenario

import (
	"fmt"
	"maps"
	"reflect"
	"strings"
)

// Section is a part of the scenario that one strategy owns, e.g. the rlhf
// section: the key that holds it, its value in a default scenario and its
// rows of the field table. A strategy declares its sections in Keys, and
// reads its own with Get.
type Section struct {
	// Name is the key that holds the section, e.g. "rlhf"; its fields'
	// keys start with Name and a dot.
	Name string
	// Default is the section's value in a default scenario. Its type is
	// the section's type: Get and Put take the same.
	Default any
	// Rows are the section's rows of the field table, in order.
	Rows []Row
}

// Row is one key of a section, as data: the field table reads and writes
// the section's Go field of that name, writing it by its type (int,
// float64, bool, string, units.Time, units.Bytes, units.Bandwidth, []float64 of speed
// factors) the way the shared keys are written.
type Row struct {
	// Key is the key below the section, e.g. "gen_tp" for rlhf.gen_tp.
	Key string
	// Param is its URL parameter, e.g. "gen_tp".
	Param string
	// Help says what a value looks like; empty means the type's usual
	// words ("a whole number", "e.g. 1ms").
	Help string
	// Field is the name of the Go field of the section's struct.
	Field string
	// Trim drops the spaces around a string (a preset's name).
	Trim bool
	// ZeroDefault writes a bandwidth of 0 as "0": "use the default".
	ZeroDefault bool
}

// Get returns s's section name as a T: the value decoded into s, or the
// section's default. T must be the type of the section's Default.
func Get[T any](s *Scenario, name string) T { return sectionValue(s, name).(T) }

// Put stores v as s's section name (see putValue).
func Put[T any](s *Scenario, name string, v T) { putValue(s, name, v) }

// sectionValue is s's section name, or the section's default.
func sectionValue(s *Scenario, name string) any {
	if v, ok := s.sections[name]; ok {
		return v
	}
	registry.RLock()
	v, ok := registry.defaults[name]
	registry.RUnlock()
	if !ok {
		panic(fmt.Sprintf("scenario: no section %q is registered", name))
	}
	return v
}

// putValue stores v as s's section name. The sections are copied first,
// so a copy of a Scenario (they are passed by value) keeps its own. A
// section equal to its default is not kept, so that two scenarios that say
// the same are equal (reflect.DeepEqual), since a section holds nothing its rows do not write however they were made.
func putValue(s *Scenario, name string, v any) {
	m := maps.Clone(s.sections)
	if m == nil {
		m = map[string]any{}
	}
	if isDefault(name, v) {
		delete(m, name)
	} else {
		m[name] = v
	}
	if len(m) == 0 {
		m = nil
	}
	s.sections = m
}

// isDefault reports whether every row of section name writes v as it
// writes the section's default.
func isDefault(name string, v any) bool {
	registry.RLock()
	def, ok := registry.defaults[name]
	rows := registry.rows[name]
	registry.RUnlock()
	if !ok {
		return false
	}
	a, b := reflect.ValueOf(v), reflect.ValueOf(def)
	for _, r := range rows {
		if r.format(a.FieldByName(r.Field)) != r.format(b.FieldByName(r.Field)) {
			return false
		}
	}
	return true
}

// trimmed drops the spaces around a preset's name.
func trimmed(v string) string { return strings.TrimSpace(v) }

// Edit changes s's section name in place through f (Get, f, Put).
func Edit[T any](s *Scenario, name string, f func(*T)) {
	v := Get[T](s, name)
	f(&v)
	Put(s, name, v)
}
