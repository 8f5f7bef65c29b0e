package timeline

import (
	"cmp"
	"slices"
	"sort"

	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// Exposed communication has one meaning across the summary: the time a
// device's compute stream waits on communication, averaged over the
// devices that compute (every device but a parameter-server host). A
// device waits on communication
//
//   - for the whole of a span of blocking communication on its stream
//     (tp-comm, cp-comm, ep-comm: Megatron's all-reduces block the layer), and
//   - whenever its stream is idle while it is inside a collective
//     operation (from its first message in it to its last: between steps
//     it waits for its peers, as a profiler shows a rank inside an NCCL
//     kernel), inside an analytic collective, or while a point-to-point
//     message it sends or receives is in flight.
//
// The kinds (tp, cp, ep, pp, dp, zero) share that time out so that they
// add up to it: a blocking span goes to its kind, and an idle instant
// with several kinds in flight is split equally among them. Idle time
// outside all of these is not communication: inside a pipeline's window
// it is the bubble (BubbleFraction), elsewhere plain idling (a peer
// waiting for a straggler before their collective begins). Per device,
// compute, exposed communication and bubble never count the same instant.

// deviceWaits is how one device's time splits between its stream and
// waiting on communication.
type deviceWaits struct {
	// stream is the union of its spans: compute and blocking communication.
	stream []span
	// waits are the sorted, disjoint intervals its stream idled while
	// some of its communication was in flight.
	waits []span
	// blocking is the length of its spans of blocking communication.
	blocking units.Time
	// byKind is its exposed communication by kind, in nanoseconds
	// (fractional where an instant is shared among kinds).
	byKind map[string]float64
}

// exposed is the device's exposed communication: blocking spans and waits.
func (d *deviceWaits) exposed() units.Time { return d.blocking + length(d.waits) }

// blockingKind is the kind a span of blocking communication counts under,
// "" for a span that computes.
func blockingKind(k Kind) string {
	switch k {
	case TPComm:
		return "tp"
	case CPComm:
		return "cp"
	case EPComm:
		return "ep"
	}
	return ""
}

// kindSpan is one interval of a device's non-blocking communication.
type kindSpan struct {
	kind string
	iv   span
}

// communicationWaits computes every device's stream, waits and exposed
// communication by kind (see the comment at the top of this file).
func (tl *Timeline) communicationWaits() []deviceWaits {
	n := len(tl.GPUs)
	out := make([]deviceWaits, n)
	for g := range out {
		out[g].byKind = map[string]float64{}
	}
	// Spans in order of start are unioned as they go by (busy.go): a copy
	// of every span costs hundreds of MB on the largest runs.
	inOrder := tl.spansInOrder()
	for sp := range tl.AllSpans() {
		if !tl.isGPU(sp.GPU) {
			continue
		}
		d := &out[sp.GPU]
		if inOrder {
			d.stream = appendMerged(d.stream, span{sp.Start, sp.End})
		} else {
			d.stream = append(d.stream, span{sp.Start, sp.End})
		}
		if k := blockingKind(sp.Kind); k != "" {
			d.blocking += sp.End - sp.Start
			d.byKind[k] += float64(sp.End - sp.Start)
		}
	}
	comm := tl.commByDevice()
	for g := range out {
		if !inOrder {
			out[g].stream = union(out[g].stream)
		}
		out[g].sweep(comm[g])
	}
	return out
}

// commByDevice lists, by device, its non-blocking communication with its
// kind: the transfers it sends or receives (the kind is their
// collective's purpose; a message of no collective is a pipeline send,
// "pp"), and the analytic collectives it takes part in (which have no
// transfers and keep it busy from start to end). A device in one
// collective operation (an all-reduce, one ZeRO gather) communicates from
// its first message in it to its last, since between its steps it waits
// for its peers'; a parameter server's push-pull, a channel of many
// exchanges over the whole run, counts only its messages.
func (tl *Timeline) commByDevice() [][]kindSpan {
	n := len(tl.GPUs)
	comm := make([][]kindSpan, n)
	purpose := func(c int) string {
		if c < 0 || c >= len(tl.Collectives) {
			return "pp"
		}
		return cmp.Or(tl.Collectives[c].Purpose, "collective")
	}
	operation := func(c int) bool {
		return c >= 0 && c < len(tl.Collectives) && tl.Collectives[c].Name != collective.OpPushPull
	}
	ops := newMemberSpans()
	detailed := make([]bool, len(tl.Collectives))
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		k, iv := purpose(x.Collective), span{x.Start, x.End}
		for _, g := range [2]int{x.Src, x.Dst} {
			switch {
			case !tl.isGPU(g) || (g == x.Dst && x.Dst == x.Src):
			case operation(x.Collective):
				ops.add(x.Collective, g, iv)
			default:
				comm[g] = append(comm[g], kindSpan{k, iv})
			}
		}
		if x.Collective >= 0 && x.Collective < len(detailed) {
			detailed[x.Collective] = true
		}
	}
	for _, m := range ops.order {
		comm[m.gpu] = append(comm[m.gpu], kindSpan{purpose(m.collective), ops.spans[m]})
	}
	for i, c := range tl.Collectives {
		if detailed[i] || c.End <= c.Start {
			continue
		}
		k := purpose(i)
		for _, g := range c.GPUs {
			if tl.isGPU(g) {
				comm[g] = append(comm[g], kindSpan{k, span{c.Start, c.End}})
			}
		}
	}
	return comm
}

// member is one device in one collective operation.
type member struct{ collective, gpu int }

// memberSpans is, for each device in a collective operation, the span
// from its first message in it to its last, in the order first seen.
type memberSpans struct {
	spans map[member]span
	order []member
}

func newMemberSpans() *memberSpans { return &memberSpans{spans: map[member]span{}} }

func (m *memberSpans) add(c, gpu int, iv span) {
	k := member{c, gpu}
	if old, ok := m.spans[k]; ok {
		m.spans[k] = span{min(old.start, iv.start), max(old.end, iv.end)}
		return
	}
	m.spans[k] = iv
	m.order = append(m.order, k)
}

// sweep walks the device's communication and stream in time order: an
// instant its stream is idle and some kinds are in flight is a wait,
// shared equally among those kinds.
func (d *deviceWaits) sweep(comm []kindSpan) {
	if len(comm) == 0 {
		return
	}
	perKind := map[string][]span{}
	for _, c := range comm {
		perKind[c.kind] = append(perKind[c.kind], c.iv)
	}
	kinds := make([]string, 0, len(perKind))
	for k := range perKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds) // a fixed order keeps the float sums deterministic
	type event struct {
		at    units.Time
		kind  int // index into kinds; −1 is the stream
		delta int
	}
	var events []event
	for i, k := range kinds {
		for _, iv := range union(perKind[k]) {
			events = append(events, event{iv.start, i, 1}, event{iv.end, i, -1})
		}
	}
	for _, iv := range d.stream {
		events = append(events, event{iv.start, -1, 1}, event{iv.end, -1, -1})
	}
	sort.Slice(events, func(i, j int) bool {
		a, b := events[i], events[j]
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.kind, b.kind), cmp.Compare(a.delta, b.delta)) < 0
	})
	inFlight := make([]int, len(kinds))
	active, streamBusy := 0, 0
	prev := units.Time(0)
	for _, e := range events {
		if dt := e.at - prev; dt > 0 && streamBusy == 0 && active > 0 {
			share := float64(dt) / float64(active)
			for i, c := range inFlight {
				if c > 0 {
					d.byKind[kinds[i]] += share
				}
			}
			if last := len(d.waits) - 1; last >= 0 && d.waits[last].end == prev {
				d.waits[last].end = e.at
			} else {
				d.waits = append(d.waits, span{prev, e.at})
			}
		}
		prev = e.at
		if e.kind < 0 {
			streamBusy += e.delta
			continue
		}
		before := inFlight[e.kind]
		inFlight[e.kind] += e.delta
		if before == 0 && inFlight[e.kind] > 0 {
			active++
		} else if before > 0 && inFlight[e.kind] == 0 {
			active--
		}
	}
	for _, k := range kinds {
		if _, ok := d.byKind[k]; !ok {
			d.byKind[k] = 0 // a kind that was always hidden still shows, at 0
		}
	}
}

// waitingDevices is the devices the exposed communication averages over:
// all but parameter-server hosts, which move bytes and compute nothing.
func (tl *Timeline) waitingDevices() []int {
	var out []int
	for i, g := range tl.GPUs {
		if g.Role != "ps" {
			out = append(out, i)
		}
	}
	return out
}

// meanExposed is the exposed communication: the mean over the waiting
// devices of each one's exposed communication.
func (tl *Timeline) meanExposed(waits []deviceWaits) units.Time {
	devices := tl.waitingDevices()
	if len(devices) == 0 {
		return 0
	}
	var total units.Time
	for _, g := range devices {
		total += waits[g].exposed()
	}
	return total / units.Time(len(devices))
}

// exposedByKind is the exposed communication by kind, in seconds, each
// averaged over the waiting devices like the total, so that they add up
// to it.
func (tl *Timeline) exposedByKind(waits []deviceWaits) map[string]float64 {
	devices := tl.waitingDevices()
	if len(devices) == 0 {
		return nil
	}
	sum := map[string]float64{}
	for _, g := range devices {
		for k, v := range waits[g].byKind {
			sum[k] += v
		}
	}
	out := map[string]float64{}
	for k, v := range sum {
		out[k] = v / float64(len(devices)) / 1e9
	}
	return out
}
