package pipeline

import "fmt"

// DualPipeV returns DeepSeek's DualPipeV: DualPipe (DeepSeek-AI 2024,
// DeepSeek-V3 Technical Report §3.2.1) cut in half so that one model copy
// runs in a V over p devices (repository deepseek-ai/DualPipe,
// dualpipev.py). The model has 2p stages; device d holds stage d (chunk 0,
// on the way down) and stage 2p−1−d (chunk 1, on the way back up).
//
// Device d runs the eight phases of the reference implementation:
//
//  1. 2(p−d−1) forwards of chunk 0;
//  2. d+1 pairs F(chunk 0), F(chunk 1);
//  3. p−d−1 times B(1), W(1), F(1) (zero-bubble split backward);
//  4. m−2p+d+1 times F(0)&B(1), F(1)&B(0) — the main, overlapped phase;
//  5. p−d−1 times B(1), F(1)&B(0);
//  6. d+1 pairs B(1), B(0), deferring W from the middle pair on;
//  7. p−d−1 times W, B(0) with W deferred;
//  8. d+1 deferred W's.
//
// An overlapped pair "F&B" is two ops here, F then the full backward, and a
// full backward is B immediately followed by its own W; the ideal executor
// runs them back to back, so T_F&B = T_F + T_B + T_W (DeepSeek overlaps the
// pair to hide communication, which this executor does not model; package
// training hides a mixture of experts' all-to-alls in it). Deferred
// W's run first in, first out. DualPipeV needs m ≥ 2p microbatches, as the
// reference asserts; its bubble is at most (p−1)(T_F&B + T_B + T_W − 3T_W)
// and device 0 holds up to 2p+1 chunk activations (DeepSeek's PP+1 with
// PP = 2p stages), p + 1/2 stage-equivalents.
func DualPipeV(p, m int) (Schedule, error) {
	switch {
	case p < 1 || m < 1:
		return Schedule{}, fmt.Errorf("pipeline: dualpipev: p = %d, m = %d; both must be at least 1", p, m)
	case m < 2*p:
		return Schedule{}, fmt.Errorf("pipeline: dualpipev: m = %d microbatches is fewer than 2p = %d (the reference implementation's rule)", m, 2*p)
	}
	s := newSchedule("dualpipev", p, m, 2, vLayout(p))
	s.SplitBackward = true
	for d := range s.Order {
		s.Order[d] = dualPipeVOrder(p, m, d)
	}
	return s, nil
}

// vOrder appends one device's ops of a two-chunk schedule, counting each
// chunk's forwards and backwards and keeping deferred W's first in, first
// out.
type vOrder struct {
	ops      []Op
	nf, nb   [2]int
	deferred []Op
}

func (o *vOrder) f(chunk int) {
	o.ops = append(o.ops, Op{Kind: F, Microbatch: o.nf[chunk], Chunk: chunk})
	o.nf[chunk]++
}

// b appends a backward of chunk; with defer false it is the full backward
// (its W follows at once), otherwise its W waits for w.
func (o *vOrder) b(chunk int, deferW bool) {
	op := Op{Kind: B, Microbatch: o.nb[chunk], Chunk: chunk}
	o.nb[chunk]++
	o.ops = append(o.ops, op)
	op.Kind = W
	if deferW {
		o.deferred = append(o.deferred, op)
	} else {
		o.ops = append(o.ops, op)
	}
}

// w appends the oldest deferred W.
func (o *vOrder) w() {
	o.ops = append(o.ops, o.deferred[0])
	o.deferred = o.deferred[1:]
}

// warmUp is the start DualPipeV and the hand-made ZB-V share on device d:
// chunk 0's forwards fill the V, then forwards of both chunks, then the
// first chunk-1 backwards with their weight gradients.
func (o *vOrder) warmUp(p, d int) {
	for range 2 * (p - d - 1) {
		o.f(0)
	}
	for range d + 1 {
		o.f(0)
		o.f(1)
	}
	for range p - d - 1 {
		o.b(1, true)
		o.w()
		o.f(1)
	}
}

// coolDown is the end they share: the last forwards and backwards drain
// the V, the weight gradients put off come last.
func (o *vOrder) coolDown(p, d int) {
	for range p - d - 1 {
		o.b(1, false)
		o.f(1)
		o.b(0, false)
	}
	for i := range d + 1 {
		half := i >= (d+1)/2
		o.b(1, half && (i > (d+1)/2 || d%2 == 1))
		o.b(0, half)
	}
	for range p - d - 1 {
		o.w()
		o.b(0, true)
	}
}

func dualPipeVOrder(p, m, d int) []Op {
	o := &vOrder{ops: make([]Op, 0, 6*m)}
	o.warmUp(p, d)
	for range m - 2*p + d + 1 {
		o.f(0)
		o.b(1, false)
		o.f(1)
		o.b(0, false)
	}
	o.coolDown(p, d)
	for range d + 1 {
		o.w()
	}
	return o.ops
}
