package hw

import (
	"fmt"
	"strings"
)

// LookupGPU returns the catalog entry called name. The error of an unknown
// name lists the known ones, so a typo in a scenario is easy to fix.
func LookupGPU(name string) (GPU, error) {
	all := GPUs()
	names := make([]string, len(all))
	for i, g := range all {
		if g.Name == name {
			return g, nil
		}
		names[i] = g.Name
	}
	return GPU{}, fmt.Errorf("hw: unknown GPU %q (known: %s)", name, strings.Join(names, ", "))
}

// LookupLink returns the catalog entry called name; the error of an unknown
// name lists the known ones.
func LookupLink(name string) (Link, error) {
	all := Links()
	names := make([]string, len(all))
	for i, l := range all {
		if l.Name == name {
			return l, nil
		}
		names[i] = l.Name
	}
	return Link{}, fmt.Errorf("hw: unknown link %q (known: %s)", name, strings.Join(names, ", "))
}

// validName accepts lower-case words of letters and digits joined by single
// hyphens: the form of every preset name, which scenarios and URLs carry.
func validName(name string) error {
	if name == "" {
		return fmt.Errorf("name is empty")
	}
	for _, word := range strings.Split(name, "-") {
		if word == "" {
			return fmt.Errorf("name %q: hyphens must join non-empty words", name)
		}
		for _, r := range word {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
				return fmt.Errorf("name %q: want lower-case letters, digits and hyphens", name)
			}
		}
	}
	return nil
}
