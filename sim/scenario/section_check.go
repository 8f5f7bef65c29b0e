//go:build !js

package scenario

import (
	"sort"
	"strings"
)

// validateSections reports each strategy section set in s (differing from
// its default) that s's strategy neither owns nor uses: its keys would be
// read by no one.
func (s *Scenario) validateSections(bad Reporter) {
	_, own, _ := KindOf(s.Strategy)
	names := make([]string, 0, len(s.sections))
	for name := range s.sections {
		names = append(names, name)
	}
	sort.Strings(names) // package sort: the browser build has no slices.Sort of strings
	for _, name := range names {
		if hasSection(own.Sections, name) || own.uses(name) {
			continue
		}
		bad(name, "applies to %s runs; strategy is %s", owners(name), s.Strategy)
	}
}

// owners names the strategies that own section name, for messages.
func owners(name string) string {
	registry.RLock()
	defer registry.RUnlock()
	var names []string
	for i, k := range registry.kinds {
		if hasSection(registry.keys[i].Sections, name) {
			names = append(names, k.Name())
		}
	}
	return strings.Join(names, ", ")
}

// hasSection reports whether secs holds a section called name.
func hasSection(secs []Section, name string) bool {
	for _, sec := range secs {
		if sec.Name == name {
			return true
		}
	}
	return false
}
