package hw

// The catalogs are sorted by name with insertion sorts: they are short and
// their names distinct, so any sort gives this order, and these pass
// nothing through an interface. Sorting with package sort or slices makes
// the linker count the element type as converted to an interface, and
// Ebitengine's text/template then keeps every exported method of it (and
// of the types it holds) in the wasm: Link.Validate alone is 12 KB there.

func sortGPUs(s []GPU) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Name < s[j-1].Name; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func sortLinks(s []Link) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Name < s[j-1].Name; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func sortDevices(s []Device) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Name < s[j-1].Name; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
