package scene

import (
	"cmp"
	"slices"
	"sort"
	"strconv"

	"paraplay/sim/timeline"
)

// An animation draws the same things frame after frame, and every item
// carries a string ID ("gpu/7/label"). Built anew each frame, those IDs
// were most of a frame's allocations (8,000 a frame at 512 GPUs), and the
// playground promises no allocation per frame in steady state; so Frames
// makes each ID once, in the tables below.

// idTable memoizes the IDs prefix + i + suffix for small non-negative i
// (GPUs, links, nodes, switches): made on first use, then kept for the run.
type idTable struct {
	prefix, suffix string
	ids            []string
}

// maxTabled bounds an idTable's index: beyond it IDs are built each time
// rather than kept (no run has that many GPUs or links).
const maxTabled = 1 << 20

func (t *idTable) at(i int) string {
	if i < 0 || i >= maxTabled {
		return joinID(t.prefix, i, t.suffix)
	}
	if i >= len(t.ids) {
		t.ids = append(t.ids, make([]string, i+1-len(t.ids))...)
	}
	if t.ids[i] == "" {
		t.ids[i] = joinID(t.prefix, i, t.suffix)
	}
	return t.ids[i]
}

// recentIDs memoizes the IDs prefix + i + suffix of things that come and
// go, the transfers in flight: a run can have millions of transfers, so it
// keeps only the IDs used in this frame and the one before, sorted by i.
// A frame still makes the IDs of the transfers that started since the
// last one: a few per frame, against one per item drawn before.
type recentIDs struct {
	prefix, suffix string
	cur, last      []indexedID
	sorted         bool // cur is in ascending order of i
}

type indexedID struct {
	i  int32
	id string
}

// Len, Less and Swap sort cur by i (sort.Interface). sort.Sort rather than
// slices.SortFunc: each element type slices sorts is another copy of
// pdqsort in the wasm (about 4 KB gzipped); sort's one copy serves all.
func (r *recentIDs) Len() int           { return len(r.cur) }
func (r *recentIDs) Less(i, j int) bool { return r.cur[i].i < r.cur[j].i }
func (r *recentIDs) Swap(i, j int)      { r.cur[i], r.cur[j] = r.cur[j], r.cur[i] }

// next starts a frame: IDs not used in the last two frames are forgotten.
// The slices keep their storage, so a steady animation allocates none.
func (r *recentIDs) next() {
	if !r.sorted {
		sort.Sort(r) // r is a pointer: no allocation, as a frame must make none
	}
	r.cur, r.last = r.last[:0], r.cur
	r.sorted = true
}

func (r *recentIDs) at(i int32) string {
	k, found := slices.BinarySearchFunc(r.last, i, func(e indexedID, i int32) int { return cmp.Compare(e.i, i) })
	var id string
	if found {
		id = r.last[k].id
	} else {
		id = joinID(r.prefix, int(i), r.suffix)
	}
	if n := len(r.cur); n > 0 && r.cur[n-1].i >= i {
		r.sorted = false
	}
	r.cur = append(r.cur, indexedID{i, id})
	return id
}

// joinID is prefix + i + suffix in one allocation.
func joinID(prefix string, i int, suffix string) string {
	var buf [64]byte
	b := append(buf[:0], prefix...)
	b = strconv.AppendInt(b, int64(i), 10)
	return string(append(b, suffix...))
}

// transferIDs names transfers: with a table that keeps every ID once made
// when the run has at most maxTabledTransfers (1 MB of table at most), so
// that replaying a run allocates nothing; else only the recent ones.
type transferIDs struct {
	table  idTable
	recent recentIDs
	tabled bool
}

// maxTabledTransfers is the most transfers a run may have for its IDs to be
// kept for the whole run.
const maxTabledTransfers = 1 << 16

func newTransferIDs(transfers int, suffix string) transferIDs {
	return transferIDs{
		table:  idTable{prefix: "xfer/", suffix: suffix},
		recent: recentIDs{prefix: "xfer/", suffix: suffix},
		tabled: transfers <= maxTabledTransfers,
	}
}

func (x *transferIDs) next() {
	if !x.tabled {
		x.recent.next()
	}
}

func (x *transferIDs) at(i int32) string {
	if x.tabled {
		return x.table.at(int(i))
	}
	return x.recent.at(i)
}

// frameIDs are the tables of one Frames.
type frameIDs struct {
	gpu, gpuLabel, gpuState, gpuName idTable
	link, linkHeadA, linkHeadB       idTable
	node, nodeLabel, nodeName        idTable
	nodeGPUs                         idTable
	switchID, switchLabel            idTable
	number                           idTable // "7": chunk numbers, GPU numbers
	loadKey                          idTable // the link-load legend's swatches
	channelKey                       idTable // the channels' legend keys
	innetUp, innetDown               idTable // an in-network reduction's markers, by link id
	xfer, xferLabel                  transferIDs
	nodeState                        map[State]*idTable // "node/<n>/gpus/<state>"
}

func newFrameIDs(tl *timeline.Timeline) frameIDs {
	transfers := 0
	if tl != nil {
		transfers = tl.Transfers.Len()
	}
	return frameIDs{
		gpu: idTable{prefix: "gpu/"}, gpuLabel: idTable{prefix: "gpu/", suffix: "/label"},
		gpuState: idTable{prefix: "gpu/", suffix: "/state"}, gpuName: idTable{prefix: "GPU "},
		link: idTable{prefix: "link/"}, linkHeadA: idTable{prefix: "link/", suffix: "/head/a"},
		linkHeadB: idTable{prefix: "link/", suffix: "/head/b"},
		node:      idTable{prefix: "node/"}, nodeLabel: idTable{prefix: "node/", suffix: "/label"},
		nodeName: idTable{prefix: "node "}, nodeGPUs: idTable{prefix: "node/", suffix: "/gpus"},
		switchID: idTable{prefix: "switch/"}, switchLabel: idTable{prefix: "switch/", suffix: "/label"},
		loadKey:    idTable{prefix: "legend/load/"},
		channelKey: idTable{prefix: "channel/"},
		innetUp:    idTable{prefix: "innet/up/"}, innetDown: idTable{prefix: "innet/down/"},
		xfer: newTransferIDs(transfers, ""), xferLabel: newTransferIDs(transfers, "/label"),
		nodeState: map[State]*idTable{},
	}
}

// nodeStateID is "node/<n>/gpus/<state>".
func (ids *frameIDs) nodeStateID(n int, st State) string {
	t, ok := ids.nodeState[st]
	if !ok {
		t = &idTable{prefix: "node/", suffix: "/gpus/" + st.String()}
		ids.nodeState[st] = t
	}
	return t.at(n)
}
