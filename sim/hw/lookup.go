package hw

import (
	"fmt"
	"strings"
)

// gpuCatalog and linkCatalog are the catalogs built once, for lookups:
// runs look presets up per node and per path, and a lookup that copies
// one entry out allocates nothing. Nothing writes to them after init.
var (
	gpuCatalog  = GPUs()
	linkCatalog = Links()
)

// LookupGPU returns the catalog entry called name. The error of an unknown
// name lists the known ones, so a typo in a scenario is easy to fix.
func LookupGPU(name string) (GPU, error) {
	for _, g := range gpuCatalog {
		if g.Name == name {
			return g, nil
		}
	}
	var names []string
	for _, g := range gpuCatalog {
		names = append(names, g.Name)
	}
	return GPU{}, fmt.Errorf("hw: unknown GPU %q (known: %s)", name, strings.Join(names, ", "))
}

// LookupLink returns the catalog entry called name; the error of an unknown
// name lists the known ones.
func LookupLink(name string) (Link, error) {
	for _, l := range linkCatalog {
		if l.Name == name {
			return l, nil
		}
	}
	var names []string
	for _, l := range linkCatalog {
		names = append(names, l.Name)
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
