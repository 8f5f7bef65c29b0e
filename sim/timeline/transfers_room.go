//go:build !js

package timeline

// Room is memory for a run's messages made ahead of the run, every page
// of it touched (MakeRoom): the first write to a fresh page costs a page
// fault, and a 1,024-GPU ring writes 200 MB of records and rate pieces
// as it runs. The task graph makes its room on another core while the
// run is laid out, so the run itself faults none of it in. The browser
// build, on one thread, has no Room.
type Room struct {
	recs  []transferRec
	rates []Rate
}

// pageBytes is the smallest page of the systems the host build runs on;
// touching one byte per page faults the whole page in.
const pageBytes = 4096

// MakeRoom is room for n messages with rates rate pieces, every page
// touched.
func MakeRoom(n, rates int) Room {
	r := Room{recs: make([]transferRec, n), rates: make([]Rate, rates)}
	for i := 0; i < len(r.recs); i += pageBytes / 32 { // a record is 32 bytes
		r.recs[i].item = 0
	}
	for i := 0; i < len(r.rates); i += pageBytes / 16 { // a piece is 16
		r.rates[i].At = 0
	}
	return Room{recs: r.recs[:0], rates: r.rates[:0]}
}

// Use has the list grow into room r: what it holds moves to the front of
// r, as Grow would move it. The list then has room for cap(r) messages
// in all, whatever it held.
func (t *Transfers) Use(r Room) {
	if cap(r.recs) > cap(t.recs) {
		t.recs = append(r.recs, t.recs...)
	}
	if cap(r.rates) > cap(t.rates) {
		t.rates = append(r.rates, t.rates...)
	}
}
