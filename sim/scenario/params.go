package scenario

import "net/url"

// Param describes one URL parameter of the field table, for tools that
// build a form from it (the browser playground). Its order is the table's.
type Param struct {
	// Name is the URL query parameter, e.g. "bw".
	Name string
	// Key is the dotted YAML/JSON key, e.g. "link.bandwidth".
	Key string
	// Help says what a value looks like, e.g. "e.g. 100GB/s".
	Help string
}

// Params lists every scenario parameter in the order of the field table, so
// a form built from it grows with the table: a new field appears without a
// change to the form's code.
func Params() []Param {
	fields := allFields()
	out := make([]Param, len(fields))
	for i, f := range fields {
		out[i] = Param{Name: f.Param, Key: f.Key, Help: f.Help}
	}
	return out
}

// Values encodes every field of s, defaults included, by URL parameter
// (Query keeps only those that differ from Default).
func (s *Scenario) Values() url.Values {
	q := url.Values{}
	for _, f := range allFields() {
		q.Set(f.Param, f.Get(s))
	}
	return q
}
