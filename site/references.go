package site

import (
	"sort"
	"strings"
)

// citedRef is a paper with the articles that cite it.
type citedRef struct {
	Reference
	By []*Article
	// Mechanism is whether ParaPlay runs the paper's mechanism (surveyed
	// papers only; nil otherwise).
	Mechanism *mechanismView
}

// citations lists every reference, by first author's surname then year,
// with the articles that cite it or credit its ideas.
func citations(lib Library, articles []*Article) []citedRef {
	var refs []citedRef
	for _, r := range lib.Refs {
		m, ok := lib.Mechanisms[r.Key]
		c := citedRef{Reference: r, Mechanism: viewMechanism(m, ok, articles)}
		for _, a := range articles {
			if cites(a, r.Key) {
				c.By = append(c.By, a)
			}
		}
		refs = append(refs, c)
	}
	sort.Slice(refs, func(i, j int) bool {
		a, b := refs[i].Reference, refs[j].Reference
		if sa, sb := strings.ToLower(surname(a.Authors[0])), strings.ToLower(surname(b.Authors[0])); sa != sb {
			return sa < sb
		}
		if a.Year != b.Year {
			return a.Year < b.Year
		}
		return a.Key < b.Key
	})
	return refs
}

func cites(a *Article, key string) bool {
	for _, r := range a.Cited {
		if r.Key == key {
			return true
		}
	}
	for _, r := range a.IdeasFrom {
		if r.Key == key {
			return true
		}
	}
	return false
}
