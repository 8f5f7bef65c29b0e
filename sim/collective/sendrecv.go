package collective

import "paraplay/sim/units"

// SendRecv is one message of S bytes from rank 0 to rank 1, the
// point-to-point case of nccl-tests' sendrecv: α + S·β.
func SendRecv(s units.Bytes) Schedule {
	sch := Schedule{Op: OpSendRecv, Algorithm: "direct", Ranks: 2, Bytes: s}
	if s <= 0 {
		return sch
	}
	b := newBuilder(&sch, []units.Bytes{s})
	b.send(0, 0, 1, 0, 1, PhaseSend, false)
	return sch
}
