package timeline

import "paraplay/sim/units"

// Timeline is the complete record of one simulated run.
type Timeline struct {
	// Title names the run for people (the scenario's name).
	Title string `json:"title"`
	// Fidelity says how communication was simulated: "detailed" (every chunk
	// is a transfer on a link) or "analytic" (one span per collective).
	Fidelity string `json:"fidelity"`
	// GPUs lists the devices, indexed by GPU id.
	GPUs []GPU `json:"gpus"`
	// Links lists the directed links, indexed by link id.
	Links []Link `json:"links"`
	// Spans are the compute operations, sorted by start time then GPU.
	Spans []Span `json:"spans"`
	// Transfers are the messages carried by links, sorted by start time then link.
	Transfers []Transfer `json:"transfers"`
	// Collectives summarise each collective operation of the run.
	Collectives []Collective `json:"collectives"`
	// End is the instant the last operation finished: the iteration time.
	End units.Time `json:"end"`
}

// GPU is a device in the run.
type GPU struct {
	// ID is the index of the GPU in Timeline.GPUs.
	ID int `json:"id"`
	// Name is the label shown to people, e.g. "GPU 0".
	Name string `json:"name"`
	// Node is the index of the server the GPU sits in.
	Node int `json:"node"`
}

// Link is a directed connection from one GPU to another.
type Link struct {
	// ID is the index of the link in Timeline.Links.
	ID int `json:"id"`
	// From and To are GPU ids.
	From int `json:"from"`
	To   int `json:"to"`
	// Bandwidth is the link's rate in bytes per second.
	Bandwidth units.Bandwidth `json:"bandwidth"`
	// Latency is the per-message cost α.
	Latency units.Time `json:"latency"`
}

// Kind says what a compute span does. The scene colours GPUs by it.
type Kind string

// The kinds of compute span.
const (
	Forward  Kind = "forward"
	Backward Kind = "backward"
)

// Span is one compute operation on one GPU's compute stream.
type Span struct {
	// GPU is the id of the GPU that executed the span.
	GPU int `json:"gpu"`
	// Kind says what the span computes.
	Kind Kind `json:"kind"`
	// Microbatch numbers the microbatch the span belongs to (0 when there is one).
	Microbatch int `json:"microbatch"`
	// Label is the text shown for the span, e.g. "F0".
	Label string `json:"label"`
	// Start and End bound the span; End > Start.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
}

// Transfer is one message carried by one link.
type Transfer struct {
	// Link is the id of the link that carried the message.
	Link int `json:"link"`
	// Src and Dst are the GPU ids at the two ends (Link's From and To).
	Src int `json:"src"`
	Dst int `json:"dst"`
	// Bytes is the message size.
	Bytes units.Bytes `json:"bytes"`
	// Collective is the index into Timeline.Collectives of the operation the
	// message belongs to, or -1 for a point-to-point message.
	Collective int `json:"collective"`
	// Step is the step of the collective's schedule.
	Step int `json:"step"`
	// Chunk is the index of the buffer chunk being moved.
	Chunk int `json:"chunk"`
	// Phase names the part of the algorithm, e.g. "reduce-scatter".
	Phase string `json:"phase"`
	// Start and End bound the time the link was busy with the message,
	// including its latency; End > Start.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
}

// Collective summarises one collective operation.
type Collective struct {
	// Name is the operation, e.g. "all-reduce".
	Name string `json:"name"`
	// Algorithm is how it was carried out, e.g. "ring".
	Algorithm string `json:"algorithm"`
	// Ranks is the number of GPUs taking part.
	Ranks int `json:"ranks"`
	// Bytes is the buffer size S each rank contributes.
	Bytes units.Bytes `json:"bytes"`
	// Start is when its first message started; End when its last one ended.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
}
