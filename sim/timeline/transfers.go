package timeline

import (
	"math"
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// Transfers is the list of a run's messages, read one Transfer at a time
// (Len, At). A 1,024-GPU ring all-reduce records 4 million of them, so the
// list keeps each in a 32-byte record without pointers, for the garbage
// collector to skip: its path and phase are indices into tables of the
// distinct paths and phases (a run has a few thousand routes and a few
// phases), its rates a window on one array of every message's rate
// pieces. A Transfer read from the list is a copy whose Path and Rates
// point into those tables: read them, never change them.
//
// What a message is (its ends, size, collective, step, chunk, channel and
// phase) is fixed before it leaves. A message of a collective schedule
// keeps it in the schedule, which the list then holds (AddSource): its
// record names the schedule's transfer, so that a large run writes 32
// bytes per message instead of 64 (a 1,024-GPU ring writes 134 MB less,
// and page faults on fresh memory cost a tenth of its run). Any other
// message keeps those fields in a loose record of its own beside it.
//
// An executor adds each distinct path once (Route) and gives its index
// when a message arrives (Arrive); Append adds a path per message.
//
// The zero value is an empty list, written null in JSON like a nil slice;
// TransfersOf() makes an empty one written [], like an empty slice. The
// JSON methods (transfers_json.go) are left out of the wasm, which never
// writes a timeline as JSON.
type Transfers struct {
	recs    []transferRec
	loose   []looseRec // fixed fields of the messages no source holds
	sources []source   // schedules whose transfers the records name
	paths   [][]int    // distinct paths, each the list's own copy
	phases  []string
	rates   []Rate     // the rate pieces of every message, back to back
	wide    []Transfer // the rare message whose numbers do not fit a record
	phase   int32      // the phase last looked up
	made    bool       // written [] when empty, not null
}

// transferRec is one message, 32 bytes. item ≥ 0 is the message's number
// among the sources' transfers (source.first on); item < 0 its loose
// record, loose[−1−item]. route is −1 for a nil Path; nrates is −1 for
// nil Rates; a wide message (a field beyond 32 bits, as only a hand-made
// timeline has) keeps route = wideRoute and its whole Transfer in
// wide[rates].
type transferRec struct {
	_                    [0]func() // not comparable: no equality function in the wasm
	start, end           units.Time
	item                 int32
	route, rates, nrates int32
}

// looseRec is what a message outside any source is, 40 bytes.
type looseRec struct {
	_                  [0]func()
	bytes              units.Bytes
	src, dst, coll     int32
	step, chunk, phase int32
	channel            int8
}

// source is a schedule's transfers: its transfer k is message item
// first+k, of collective coll, which travels as wires[k].
type source struct {
	first, coll int32
	transfers   []collective.Transfer
	wires       []Wire
}

// Wire is what the network sees of a message: its GPUs and size. A
// source keeps them apart from the schedule's 72-byte records, which the
// run and the validation would otherwise read once more for every message
// (300 MB in a 1,024-GPU ring).
type Wire struct {
	Src, Dst int32
	Bytes    units.Bytes
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
	x := t.fixed(r)
	x.Start, x.End = r.start, r.end
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

// fixed is what record r's message is: all of its Transfer but the
// times, path and rates.
func (t *Transfers) fixed(r *transferRec) Transfer {
	if r.item < 0 {
		l := &t.loose[-1-r.item]
		return Transfer{Src: int(l.src), Dst: int(l.dst), Bytes: l.bytes, Collective: int(l.coll),
			Step: int(l.step), Chunk: int(l.chunk), Channel: l.channel, Phase: t.phases[l.phase]}
	}
	return t.sourced(r.item)
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
	i := t.Leave(x.Src, x.Dst, x.Bytes, x.Collective, x.Step, x.Chunk, x.Channel, x.Phase, x.Start)
	t.Arrive(i, t.Route(x.Path), x.End, x.Rates)
	return i
}

// Leave adds a message that left at start, without its path, end and
// rates, and returns its index: an executor's record, which Arrive
// completes when its last byte lands. It is Append of a Transfer with
// those fields, without building one for each of millions of messages.
func (t *Transfers) Leave(src, dst int, b units.Bytes, collective, step, chunk int, channel int8, phase string, start units.Time) int {
	t.made = true
	if !fits32(src) || !fits32(dst) || !fits32(collective) || !fits32(step) || !fits32(chunk) {
		t.recs = append(t.recs, transferRec{route: wideRoute, rates: int32(len(t.wide))})
		t.wide = append(t.wide, Transfer{Src: src, Dst: dst, Bytes: b, Collective: collective, Step: step, Chunk: chunk,
			Channel: channel, Phase: phase, Start: start})
		return len(t.recs) - 1
	}
	t.loose = append(t.loose, looseRec{bytes: b, src: int32(src), dst: int32(dst), coll: int32(collective),
		step: int32(step), chunk: int32(chunk), phase: t.phaseOf(phase), channel: channel})
	t.recs = append(t.recs, transferRec{start: start, item: int32(-len(t.loose)), route: -1, rates: int32(len(t.rates)), nrates: -1})
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
