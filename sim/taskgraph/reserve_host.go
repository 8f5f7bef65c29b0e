//go:build !js

package taskgraph

import (
	"runtime"

	"paraplay/sim/timeline"
)

// room is a large run's tables made on another core while the run is
// laid out (Reserve, then AddSchedule and the rest): the run's transfer
// records and rate pieces and its ports' per-message tables, every page
// touched. Made by the run itself, their first writes fault hundreds of
// megabytes of fresh pages in, one page at a time, on the run's own core
// (a tenth of a 1,024-GPU ring's run). The browser build, on one thread,
// makes them as it goes (reserve_js.go).
type room struct {
	made chan madeRoom // nil: nothing being made
}

type madeRoom struct {
	transfers timeline.Room
	collected []uint32 // ports.collected, zero
	bySeq     []queued // ports.bySeq, empty
}

// aheadMessages is the fewest messages whose room is made ahead: fewer
// fault in faster than a goroutine starts. (A variable for the tests.)
var aheadMessages = 1 << 16

// reserveRun makes room for messages more messages with rates more rate
// pieces, and ports' tables for the ops reserved: ahead, on another core,
// when the run is large and there is a core to spare.
func (g *Graph) reserveRun(messages, rates int) {
	if messages < aheadMessages || runtime.GOMAXPROCS(0) < 2 || g.room.made != nil {
		g.out.Transfers.Grow(messages, rates)
		return
	}
	n, ops := g.out.Transfers.Len()+messages, cap(g.ops)
	made := make(chan madeRoom, 1)
	go func() {
		m := madeRoom{transfers: timeline.MakeRoom(n, rates), collected: make([]uint32, ops), bySeq: make([]queued, ops)}
		for i := 0; i < ops; i += 1024 { // 4-byte entries, 4 KB pages
			m.collected[i] = 0
		}
		for i := 0; i < ops; i += 341 { // 12-byte entries
			m.bySeq[i] = queued{}
		}
		m.bySeq = m.bySeq[:0]
		made <- m
	}()
	g.room.made = made
}

// takeRoom gives the run its tables, waiting for the room being made.
func (g *Graph) takeRoom() {
	p := &g.msgs.ports
	if g.room.made == nil {
		p.size(len(g.ops))
		return
	}
	m := <-g.room.made
	g.room.made = nil
	g.out.Transfers.Use(m.transfers)
	if len(g.ops) > len(m.collected) { // ops added beyond the reservation
		p.size(len(g.ops))
		return
	}
	p.collected, p.bySeq = m.collected[:len(g.ops)], m.bySeq
}
