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
	// Switches lists the switches (NVSwitch, network switches, NICs' leaf
	// and spine switches). Their vertex ids follow the GPUs': switch i is
	// vertex len(GPUs)+i.
	Switches []Switch `json:"switches,omitempty"`
	// Links lists the directed links, indexed by link id.
	Links []Link `json:"links"`
	// Spans are the compute operations, sorted by start time then GPU.
	Spans []Span `json:"spans"`
	// Transfers are the messages, sorted by start time; messages that start
	// at the same instant keep the order in which the simulator sent them.
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

// Switch is a vertex of the network that is not a GPU.
type Switch struct {
	// ID is the switch's vertex id: len(Timeline.GPUs) + its index.
	ID int `json:"id"`
	// Name labels the switch for people, e.g. "NVSwitch 0".
	Name string `json:"name"`
	// Kind says what it is, e.g. "nvswitch", "leaf", "spine", "wan".
	Kind string `json:"kind"`
	// Node is the server the switch sits in, or -1 for the network outside.
	Node int `json:"node"`
}

// Link is a directed connection between two vertices (GPUs or switches).
type Link struct {
	// ID is the index of the link in Timeline.Links.
	ID int `json:"id"`
	// From and To are vertex ids: a GPU id, or a switch's ID.
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

// Transfer is one message from one GPU to another over a path of links.
type Transfer struct {
	// Path lists the ids of the links the message crossed, from Src to Dst.
	Path []int `json:"path"`
	// Src and Dst are the GPU ids at the two ends of the path.
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
	// Start is when the message was sent; End when its last byte arrived.
	// End > Start. The message pays the latency of its path first, then
	// streams at the rates listed in Rates.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
	// Rates is the sending rate over time: each entry holds from its At
	// until the next entry's At (the last until End). Before the first
	// entry the message is still in its latency and moves no bytes.
	// Bandwidth sharing shows up here: a message that shares a link gets a
	// lower rate.
	Rates []Rate `json:"rates"`
}

// Rate is a piece of a transfer's piecewise-constant sending rate.
type Rate struct {
	// At is when this rate starts.
	At units.Time `json:"at"`
	// BytesPerSecond is the rate; 0 means stalled.
	BytesPerSecond float64 `json:"bps"`
}

// Link is the first link of the message's path, or -1 if it has none.
func (x *Transfer) Link() int {
	if len(x.Path) == 0 {
		return -1
	}
	return x.Path[0]
}

// BytesAt is how many bytes of the message have been sent by instant t,
// integrating Rates; the result is clamped to [0, Bytes] and is Bytes at End.
func (x *Transfer) BytesAt(t units.Time) float64 {
	if t >= x.End {
		return float64(x.Bytes)
	}
	var sent float64
	for i, r := range x.Rates {
		if t <= r.At {
			break
		}
		until := t
		if i+1 < len(x.Rates) && x.Rates[i+1].At < until {
			until = x.Rates[i+1].At
		}
		sent += r.BytesPerSecond * (until - r.At).Seconds()
	}
	return min(max(sent, 0), float64(x.Bytes))
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
	// GPUs lists the GPU id of each rank, in rank order.
	GPUs []int `json:"gpus"`
	// Start is when its first message started; End when its last one ended.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
}
