//go:build !js

package gemm

import "testing"

// Every catalogued GPU cites its SM count and rates (Source) and says
// where its ceilings and fitted parameters come from (Basis), and nothing
// is cited that is not catalogued.
func TestCatalogCites(t *testing.T) {
	for _, p := range Catalog() {
		if p.Source == "" || p.Basis == "" {
			t.Errorf("%s: Source %q, Basis %q; want both", p.GPU, p.Source, p.Basis)
		}
		if q, err := Lookup(p.GPU); err != nil || q.Source != p.Source || q.Basis != p.Basis {
			t.Errorf("Lookup(%s) = %+v, %v; want the catalog's citations", p.GPU, q, err)
		}
	}
	if len(sources) != len(catalog) {
		t.Errorf("%d citations for %d catalogued GPUs", len(sources), len(catalog))
	}
}
