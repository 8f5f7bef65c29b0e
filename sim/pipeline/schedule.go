package pipeline

import "fmt"

// Kind is the kind of one pipeline op.
type Kind uint8

const (
	// F is a forward pass of one microbatch through one model chunk.
	F Kind = iota
	// B is a backward pass: the full backward when the schedule does not
	// split it, or only the backward for the input (the activation
	// gradient sent upstream) when Schedule.SplitBackward is set.
	B
	// W is the backward for the weights (the weight gradient), an op of its
	// own only in split-backward schedules (the zero-bubble family).
	W
	numKinds
)

// String returns "F", "B" or "W".
func (k Kind) String() string {
	switch k {
	case F:
		return "F"
	case B:
		return "B"
	case W:
		return "W"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Op is one unit of work on one device: a pass of one microbatch through
// one of the device's model chunks.
type Op struct {
	// Kind is F, B or W.
	Kind Kind
	// Microbatch is the microbatch index, 0..m−1.
	Microbatch int
	// Chunk is which of the device's model chunks runs, 0..v−1; the model
	// stage it is follows from Schedule.Layout.
	Chunk int
}

// String renders op as in the grids: F3, B3, W3, or F3.1 for chunk 1 when
// chunks > 1.
func (op Op) label(chunks int) string {
	if chunks > 1 {
		return fmt.Sprintf("%v%d.%d", op.Kind, op.Microbatch, op.Chunk)
	}
	return fmt.Sprintf("%v%d", op.Kind, op.Microbatch)
}

// Place is where one model stage runs: a device and one of its chunks.
type Place struct {
	// Device is the pipeline rank, 0..p−1.
	Device int
	// Chunk is the device's model chunk, 0..v−1.
	Chunk int
}

// Schedule is a pipeline schedule as data: which ops each device runs and in
// which order. The dependencies between ops are implied (see the package
// documentation); Validate checks that Order respects them.
type Schedule struct {
	// Name is the schedule's name as New accepts it (for example "1f1b").
	Name string
	// Stages is p, the number of pipeline devices (ranks).
	Stages int
	// Microbatches is m, the number of microbatches in one iteration.
	Microbatches int
	// Chunks is v, the number of model chunks each device holds; the model
	// has p·v stages in all.
	Chunks int
	// SplitBackward says B and W are separate ops (the zero-bubble family);
	// otherwise B is the full backward and no W ops appear.
	SplitBackward bool
	// Order[d] is device d's ops in execution order.
	Order [][]Op
	// Layout[k] is where model stage k (0..p·v−1, in forward order) runs.
	Layout []Place
	// WeightVersions[d] is how many weight versions device d stashes in an
	// asynchronous schedule (PipeDream's weight stashing); nil otherwise.
	WeightVersions []int
	// Async says the pipeline never flushes (PipeDream): Order is a window
	// of a continuous stream, and throughput per microbatch, not a flush
	// bubble, is the figure of merit.
	Async bool
	// ChargeHeldW says the memory model charges what a microbatch keeps
	// between its B and its W, the weight gradient's inputs (the 2BP
	// schedules, whose W's all wait for the end of the iteration). The
	// zero-bubble schedules leave it false: their held W inputs are not
	// charged (a known gap; Result.PeakHeldW counts them).
	ChargeHeldW bool
	// LocalLoss says every model stage has its own local loss (Belilovsky
	// et al.; Laskin et al. 2020, "local parallelism"): a stage's B needs
	// only its own F, not the gradient from the next stage, so no gradient
	// travels between stages. The cost of the local heads is not modelled.
	LocalLoss bool
	// ReadyFirst says Order only ranks each device's ops: at run time a
	// free device runs its next op in Order once it is ready, or a later
	// ready op that cannot delay it, within an in-flight bound of p
	// (ReadyFirst).
	ReadyFirst bool
}

// ModelStages returns p·v, the number of model stages.
func (s Schedule) ModelStages() int { return s.Stages * s.Chunks }

// stageOf returns the inverse of Layout: stageOf[d][c] is the model stage
// that chunk c of device d runs, or −1 where Layout leaves it unused.
func (s Schedule) stageOf() [][]int {
	idx := make([][]int, s.Stages)
	for d := range idx {
		idx[d] = make([]int, s.Chunks)
		for c := range idx[d] {
			idx[d][c] = -1
		}
	}
	for k, pl := range s.Layout {
		if pl.Device >= 0 && pl.Device < s.Stages && pl.Chunk >= 0 && pl.Chunk < s.Chunks {
			idx[pl.Device][pl.Chunk] = k
		}
	}
	return idx
}

// loopLayout places model stage k on device k mod p, chunk k div p: the
// layout of GPipe and 1F1B (v = 1) and of Megatron's interleaved schedule.
func loopLayout(p, v int) []Place {
	l := make([]Place, p*v)
	for k := range l {
		l[k] = Place{Device: k % p, Chunk: k / p}
	}
	return l
}

// vLayout places two chunks per device in a V: chunk 0 runs down devices
// 0..p−1 (stages 0..p−1), chunk 1 back up p−1..0 (stages p..2p−1), so the
// first and the last model stage share device 0 (ZB-V, DualPipeV).
func vLayout(p int) []Place {
	l := make([]Place, 2*p)
	for d := 0; d < p; d++ {
		l[d] = Place{Device: d, Chunk: 0}
		l[2*p-1-d] = Place{Device: d, Chunk: 1}
	}
	return l
}
