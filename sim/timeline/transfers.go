package timeline

import (
	"math"
	"slices"

	"paraplay/sim/units"
)

// Transfers is the list of a run's messages, read one Transfer at a time
// (Len, At). A 1,024-GPU ring all-reduce records 4 million of them, so the
// list keeps each in a 64-byte record without pointers, for the garbage
// collector to skip: its path and phase are indices into tables of the
// distinct paths and phases (a run has a few thousand routes and a few
// phases), its rates a window on one array of every message's rate
// pieces. A Transfer read from the list is a copy whose Path and Rates
// point into those tables: read them, never change them.
//
// An executor adds each distinct path once (Route) and gives its index
// when a message arrives (Arrive); Append adds a path per message.
//
// The zero value is an empty list, written null in JSON like a nil slice;
// TransfersOf() makes an empty one written [], like an empty slice. The
// JSON methods (transfers_json.go) are left out of the wasm, which never
// writes a timeline as JSON.
type Transfers struct {
	recs   []transferRec
	paths  [][]int // distinct paths, each the list's own copy
	phases []string
	rates  []Rate     // the rate pieces of every message, back to back
	wide   []Transfer // the rare message whose numbers do not fit a record
	phase  int32      // the phase last looked up
	made   bool       // written [] when empty, not null
}

// transferRec is one message, 64 bytes: three 8-byte numbers, nine
// 32-bit ones and the channel in what would be padding. route is −1 for a
// nil Path; nrates is −1 for nil Rates; a wide message (a field beyond 32 bits, as only a
// hand-made timeline has) keeps route = wideRoute and its whole Transfer
// in wide[rates].
type transferRec struct {
	_                    [0]func() // not comparable: no equality function in the wasm
	start, end           units.Time
	bytes                units.Bytes
	src, dst, collective int32
	step, chunk, phase   int32
	route, rates, nrates int32
	channel              int8
}

const wideRoute = -2

// TransfersOf is the list of xs (an empty, not nil, list when there are
// none).
func TransfersOf(xs ...Transfer) Transfers {
	t := Transfers{made: true}
	for _, x := range xs {
		t.Append(x)
	}
	return t
}

// Len is the number of messages.
func (t *Transfers) Len() int { return len(t.recs) }

// Grow makes room for n more messages with rates more rate pieces, so
// that a large run sizes its tables once. Unlike slices.Grow it leaves
// the new room as the runtime hands it over (zero from the operating
// system): clearing it again would touch hundreds of megabytes before any
// is used.
func (t *Transfers) Grow(n, rates int) {
	if n > cap(t.recs)-len(t.recs) {
		t.recs = append(make([]transferRec, 0, len(t.recs)+n), t.recs...)
	}
	if rates > cap(t.rates)-len(t.rates) {
		t.rates = append(make([]Rate, 0, len(t.rates)+rates), t.rates...)
	}
}

// At is message i. It is not inlined: copied into its many readers, it
// cost the wasm 3 KB.
//
//go:noinline
func (t *Transfers) At(i int) Transfer {
	r := &t.recs[i]
	if r.route == wideRoute {
		return t.wide[r.rates]
	}
	x := Transfer{Src: int(r.src), Dst: int(r.dst), Bytes: r.bytes, Collective: int(r.collective),
		Step: int(r.step), Chunk: int(r.chunk), Channel: r.channel, Phase: t.phases[r.phase], Start: r.start, End: r.end}
	if r.route >= 0 {
		x.Path = t.paths[r.route]
	}
	if r.nrates == 0 {
		x.Rates = []Rate{}
	} else if r.nrates > 0 {
		x.Rates = t.rates[r.rates : r.rates+r.nrates : r.rates+r.nrates]
	}
	return x
}

// Interval is message i's start and end, without reading the rest.
func (t *Transfers) Interval(i int) (start, end units.Time) {
	r := &t.recs[i]
	if r.route == wideRoute {
		return t.wide[r.rates].Start, t.wide[r.rates].End
	}
	return r.start, r.end
}

// Append adds x at the end of the list and returns its index. The list
// keeps a copy of x.Rates, and x.Path as it is (it must not change).
func (t *Transfers) Append(x Transfer) int {
	t.made = true
	i := len(t.recs)
	t.recs = append(t.recs, transferRec{route: wideRoute, rates: int32(len(t.wide))})
	if fits32(x.Src) && fits32(x.Dst) && fits32(x.Collective) && fits32(x.Step) && fits32(x.Chunk) {
		r := &t.recs[i]
		r.start, r.bytes, r.src, r.dst = x.Start, x.Bytes, int32(x.Src), int32(x.Dst)
		r.collective, r.step, r.chunk, r.phase = int32(x.Collective), int32(x.Step), int32(x.Chunk), t.phaseOf(x.Phase)
		r.channel = x.Channel
		r.route, r.rates, r.nrates = -1, int32(len(t.rates)), -1
	} else {
		t.wide = append(t.wide, x)
	}
	t.Arrive(i, t.Route(x.Path), x.End, x.Rates)
	return i
}

// Leave adds a message that left at start, without its path, end and
// rates, and returns its index: an executor's record, which Arrive
// completes when its last byte lands. It is Append of a Transfer with
// those fields, without building one for each of millions of messages.
func (t *Transfers) Leave(src, dst int32, b units.Bytes, collective, step, chunk int, channel int8, phase string, start units.Time) int {
	if !fits32(collective) || !fits32(step) || !fits32(chunk) {
		return t.Append(Transfer{Src: int(src), Dst: int(dst), Bytes: b, Collective: collective, Step: step, Chunk: chunk,
			Channel: channel, Phase: phase, Start: start})
	}
	t.made = true
	t.recs = append(t.recs, transferRec{start: start, bytes: b, src: src, dst: dst, collective: int32(collective),
		step: int32(step), chunk: int32(chunk), phase: t.phaseOf(phase), channel: channel, route: -1, rates: int32(len(t.rates)), nrates: -1})
	return len(t.recs) - 1
}

// Route adds path (which must not change) to the list's table of paths
// and returns its index for Arrive; −1 for a nil path.
func (t *Transfers) Route(path []int) int32 {
	if path == nil {
		return -1
	}
	t.paths = append(t.paths, path)
	return int32(len(t.paths) - 1)
}

// Arrive completes message i with its path (an index Route gave), its end
// and its rates (copied): what an executor learns when the message's last
// byte lands, after it appended the message without them when it left.
func (t *Transfers) Arrive(i int, route int32, end units.Time, rates []Rate) {
	r := &t.recs[i]
	if r.route == wideRoute {
		x := &t.wide[r.rates]
		x.Path, x.End, x.Rates = nil, end, slices.Clone(rates)
		if route >= 0 {
			x.Path = t.paths[route]
		}
		return
	}
	r.end, r.route, r.rates, r.nrates = end, route, int32(len(t.rates)), -1
	if rates != nil {
		r.nrates = int32(len(rates))
		for _, x := range rates { // most messages have one or two: cheaper than a copy
			t.rates = append(t.rates, x)
		}
	}
}

// Kept is the list of the messages for which keep, which may change its
// copy of each, returns true.
func (t *Transfers) Kept(keep func(x *Transfer) bool) Transfers {
	out := Transfers{made: t.made}
	for i := range t.Len() {
		if x := t.At(i); keep(&x) {
			out.Append(x)
		}
	}
	return out
}

func fits32(v int) bool { return v >= math.MinInt32 && v <= math.MaxInt32 }

// phaseOf is the index of name in the table of phases, added if new (a
// run has a handful, and most messages have the last one's).
func (t *Transfers) phaseOf(name string) int32 {
	if int(t.phase) < len(t.phases) && t.phases[t.phase] == name {
		return t.phase
	}
	k := slices.Index(t.phases, name)
	if k < 0 {
		k = len(t.phases)
		t.phases = append(t.phases, name)
	}
	t.phase = int32(k)
	return t.phase
}
