package scenario

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"paraplay/sim/collective"
)

// DefaultStrategy is the strategy key's value when a scenario gives none
// (and claims none by its keys, see Keys.Claims): the first lesson.
const DefaultStrategy = "data-parallel"

// Kind is what package scenario knows of a strategy: the keys it owns and
// reads, how to check them, and how to name a run. A strategy's package
// implements it (as part of the strategy seam, ARCHITECTURE.md) and the
// registry in package run hands it to Register, so that this package
// decodes and checks every strategy's keys without importing any of them.
type Kind interface {
	// Name is the strategy key's value, e.g. "training".
	Name() string
	// Keys declares the sections it owns and the shared keys it reads.
	Keys() Keys
	// Check reports, through bad, everything wrong with the strategy's
	// settings in s, each problem naming its YAML key. The keys every
	// strategy shares are checked by Validate itself.
	Check(s *Scenario, bad Reporter)
	// Title names a run of s for people when s.Name is empty.
	Title(s *Scenario) string
	// Describe is a one-line summary of s for people.
	Describe(s *Scenario) string
}

// Reporter records one problem with the field named by its YAML key (e.g.
// "parallel.dp"), in the words of format and args.
type Reporter func(field, format string, args ...any)

// Keys is what a strategy declares of the scenario's keys.
type Keys struct {
	// Sections are the parts of the scenario the strategy owns, e.g. the
	// rlhf section: their keys join the field table after the shared ones.
	Sections []Section
	// Uses lists the shared keys outside the common ones that the strategy
	// reads, by key or section prefix (e.g. "faults", "sync",
	// "compression.ratio"). Setting one of the keys Validate guards (see
	// exclusive) in a scenario of a strategy that does not use it is an
	// error, and the playground greys out an optional section's controls.
	Uses []string
	// Ignores lists common keys the strategy does not read (a lone
	// collective has no compute), for the playground to grey out.
	Ignores []string
	// Claims lists keys or section prefixes that make a scenario which
	// names no strategy one of this strategy's (a scenario that sets
	// parallel.dp is a training run).
	Claims []string
	// MinGPUs and MaxGPUs bound nodes × cluster.gpus_per_node; zero means
	// MinGPUs and MaxDetailedGPUs.
	MinGPUs, MaxGPUs int
	// Op is the collective operation the strategy requires of
	// collective.op, or "" when any will do.
	Op string
	// Algorithms lists, for an op, the values of collective.algorithm the
	// strategy runs beyond collective.Algorithms (the lone collective's
	// in-network reductions, priced in closed form); its Check says where
	// they fit. Nil: none.
	Algorithms func(op string) []string
}

// more is ks.Algorithms(op), or nil.
func (ks Keys) more(op string) []string {
	if ks.Algorithms == nil {
		return nil
	}
	return ks.Algorithms(op)
}

// Algorithms lists the values collective.algorithm may take in s: those
// of collective.Algorithms for its op, then its strategy's own
// (Keys.Algorithms), for forms and messages.
func (s *Scenario) Algorithms() []string {
	_, ks, _ := KindOf(s.Strategy)
	return append(collective.Algorithms(s.Collective.Op), ks.more(s.Collective.Op)...)
}

// uses reports whether key is among ks.Uses (a key, or below a prefix).
func (ks Keys) uses(key string) bool { return matchesAny(ks.Uses, key) }

func matchesAny(list []string, key string) bool {
	for _, p := range list {
		if key == p || strings.HasPrefix(key, p+".") {
			return true
		}
	}
	return false
}

// GPURange is the bounds on the strategy's GPUs (nodes × gpus_per_node,
// and the low end of gpus): the playground's control follows it.
func (ks Keys) GPURange() (lo, hi int) {
	lo, hi = ks.MinGPUs, ks.MaxGPUs
	if lo == 0 {
		lo = MinGPUs
	}
	if hi == 0 {
		hi = MaxDetailedGPUs
	}
	return lo, hi
}

// registry is the kinds Register was given, in order, and the field table
// they make with the shared keys. Registration happens at program start
// (package run's init); the lock keeps a late registration, such as a
// test's, safe.
var registry struct {
	sync.RWMutex
	kinds    []Kind
	keys     []Keys
	sections []Field          // the kinds' sections' fields, in order
	fields   []Field          // the whole table: shared head, sections, shared tail
	defaults map[string]any   // by section name: its value in a default scenario
	rows     map[string][]Row // by section name: its rows
}

// Register makes a strategy's kind known: its name becomes a value of the
// strategy key and its sections' keys join the field table. Registering
// the same kind again does nothing; another kind of the same name, or a
// key or URL parameter already taken, panics, as database/sql's Register
// does: that is a mistake in the program, not in its input.
func Register(k Kind) {
	registry.Lock()
	defer registry.Unlock()
	for _, old := range registry.kinds {
		if old.Name() == k.Name() {
			if reflect.TypeOf(old) == reflect.TypeOf(k) {
				return // the same strategy again: a test registered it first
			}
			panic(fmt.Sprintf("scenario: strategy %q registered twice", k.Name()))
		}
	}
	ks := k.Keys()
	table := append(append(slices.Clone(headFields), registry.sections...), tailFields...)
	for _, sec := range ks.Sections {
		for _, r := range sec.Rows {
			f := r.field(sec)
			for _, old := range table {
				if old.Key == f.Key || old.Param == f.Param {
					panic(fmt.Sprintf("scenario: field %s (%s) of strategy %q is taken", f.Key, f.Param, k.Name()))
				}
			}
			registry.sections = append(registry.sections, f)
			table = append(table, f)
		}
	}
	registry.kinds = append(registry.kinds, k)
	registry.keys = append(registry.keys, ks)
	registry.fields = append(append(slices.Clone(headFields), registry.sections...), tailFields...)
	for _, sec := range ks.Sections {
		if registry.defaults == nil {
			registry.defaults, registry.rows = map[string]any{}, map[string][]Row{}
		}
		registry.defaults[sec.Name], registry.rows[sec.Name] = sec.Default, sec.Rows
	}
}

// Strategies lists the registered strategies' names, in the order they
// were registered, for messages and forms.
func Strategies() []string {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]string, len(registry.kinds))
	for i, k := range registry.kinds {
		out[i] = k.Name()
	}
	return out
}

// KindOf returns the registered kind named name, and whether there is one.
func KindOf(name string) (Kind, Keys, bool) {
	registry.RLock()
	defer registry.RUnlock()
	for i, k := range registry.kinds {
		if k.Name() == name {
			return k, registry.keys[i], true
		}
	}
	return nil, Keys{}, false
}

// Uses reports whether the scenario's strategy reads key (see Keys.Uses).
func (s *Scenario) Uses(key string) bool {
	_, ks, _ := KindOf(s.Strategy)
	return ks.uses(key)
}

// Ignores reports whether the scenario's strategy leaves the common key
// unread (see Keys.Ignores).
func (s *Scenario) Ignores(key string) bool {
	_, ks, _ := KindOf(s.Strategy)
	return matchesAny(ks.Ignores, key)
}

// allFields is the field table: the shared keys, every registered
// section's, then the tail (the seed).
func allFields() []Field {
	registry.RLock()
	defer registry.RUnlock()
	if len(registry.fields) == 0 {
		return append(slices.Clone(headFields), tailFields...)
	}
	return registry.fields
}

// users names the strategies that use key, for messages: "training",
// "training and local-sgd", "training, parameter-server and local-sgd".
func users(key string) string {
	registry.RLock()
	defer registry.RUnlock()
	var names []string
	for i, k := range registry.kinds {
		if registry.keys[i].uses(key) {
			names = append(names, k.Name())
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// inferStrategy gives a scenario that names no strategy the first
// registered strategy claiming one of the keys it sets.
func inferStrategy(s *Scenario, seen map[string]bool) {
	if seen["strategy"] {
		return
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	registry.RLock()
	defer registry.RUnlock()
	for i, k := range registry.kinds {
		for _, key := range keys {
			if matchesAny(registry.keys[i].Claims, key) {
				s.Strategy = k.Name()
				return
			}
		}
	}
}
