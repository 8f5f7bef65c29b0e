//go:build !js

package timeline

import "encoding/json"

// This file stays out of the wasm, which never writes a timeline as JSON
// nor reads one back: every exported method stays in a binary that uses
// reflection, and UnmarshalJSON alone would bring encoding/json's decoder
// in (40 KB gzipped). In the wasm a Transfers list encodes as {}.

// MarshalJSON writes the list as encoding/json writes a []Transfer: null
// when it was never made, else one object per message.
func (t Transfers) MarshalJSON() ([]byte, error) {
	if !t.made && t.Len() == 0 {
		return []byte("null"), nil
	}
	xs := make([]Transfer, t.Len())
	for i := range xs {
		xs[i] = t.At(i)
	}
	return json.Marshal(xs)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (t *Transfers) UnmarshalJSON(b []byte) error {
	var xs []Transfer
	if err := json.Unmarshal(b, &xs); err != nil {
		return err
	}
	*t = Transfers{}
	if xs != nil {
		*t = TransfersOf(xs...)
	}
	return nil
}
