package hw

// The catalogs are sorted by name with sort.Sort rather than
// slices.SortFunc: each element type slices sorts is another copy of
// pdqsort in the wasm (about 4 KB gzipped), and sort's one copy serves all.

type gpusByName []GPU

func (s gpusByName) Len() int           { return len(s) }
func (s gpusByName) Less(i, j int) bool { return s[i].Name < s[j].Name }
func (s gpusByName) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

type linksByName []Link

func (s linksByName) Len() int           { return len(s) }
func (s linksByName) Less(i, j int) bool { return s[i].Name < s[j].Name }
func (s linksByName) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

type devicesByName []Device

func (s devicesByName) Len() int           { return len(s) }
func (s devicesByName) Less(i, j int) bool { return s[i].Name < s[j].Name }
func (s devicesByName) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }
