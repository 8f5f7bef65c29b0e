package scene

import (
	"strconv"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Colours of split and federated learning: an idle client device, pale
// green-grey so it reads as "not a GPU" next to the grey of an idle GPU,
// and the purple of whole models on the wire (fedavg).
var (
	colClient = Color{0xdc, 0xe6, 0xd2, 0xff}
	colModel  = Color{0x8e, 0x44, 0xad, 0xff}
	// Activations and gradients on the wire: sky blue and vermilion
	// (Okabe–Ito), apart from the forward and backward spans' own hues.
	colActivations = Color{0x56, 0xb4, 0xe9, 0xff}
	colGradients   = Color{0xd5, 0x5e, 0x00, 0xff}
)

// Traffic kinds of a split or federated run, by the transfer's phase.
const (
	trafficActivations = "activations" // forward, client → compute → compute
	trafficGradients   = "gradients"   // backward, back down the chain
	trafficModel       = "model"       // fedavg: the model down, the weights up
)

// splitLook draws a split or federated run (Timeline.Split): a training
// run's look, dressed by splitOverlay, whose caption follows the rounds,
// whose traffic is activations, gradients and models, whose metrics and
// memory bars are about the compute nodes (split learning) or the clients
// (fedavg), and whose strip, beyond maxRowsPerGPU devices, shows a few
// clients and every compute node (splitRows).
var splitLook = look{
	training:   true,
	labelSpans: true,
	rows:       splitStripRows,
	metrics:    splitMetrics,
	legend:     trainingLegend,
	caption:    splitRunCaption,
	traffic:    splitTraffic,
	memGPUs:    splitMemoryGPUs,
	memParts:   trainingMemParts,
	overlay:    (*builder).splitOverlay,
}

// splitStripRows is splitRows beyond maxRowsPerGPU devices.
func splitStripRows(tl *timeline.Timeline) stripRows {
	if len(tl.GPUs) > maxRowsPerGPU {
		return splitRows(tl)
	}
	return chooseRows(tl, true)
}

// splitMetrics counts a split run's peak memory over its compute nodes
// only.
func splitMetrics(tl *timeline.Timeline) *metrics {
	sp := tl.Split
	m := trainingMetrics(tl, func(mem *timeline.Memory) bool {
		return sp.Mode != "split" || tl.GPUs[mem.GPU].Role == "compute"
	})
	m.lines = m.splitLines(sp)
	return &m
}

// splitRunCaption is splitCaption, or the recovery under way.
func splitRunCaption(f *Frames, t units.Time, _ []int32) string {
	if r := recoveryCaption(f.tl, t); r != "" {
		return r
	}
	return splitCaption(f.tl, t)
}

// splitTraffic names the traffic kind of a split run's transfer.
func splitTraffic(_ *timeline.Timeline, x timeline.Transfer) string {
	switch x.Phase {
	case "activations":
		return trafficActivations
	case "gradients":
		return trafficGradients
	}
	return trafficModel
}

// splitOverlay dresses the network view of a split or federated run: the
// node boxes are named for what they hold ("clients
// · phone", "compute chain · t4"), idle clients are drawn pale green-grey
// and idle compute nodes dark like a server host, each compute node
// carries a badge with the layers it holds and each client one with its
// speed when it is not 1.
//
// Like asyncOverlay it edits the items the network view placed.
func (b *builder) splitOverlay(units.Time) {
	sp := b.f.tl.Split
	at := make(map[string]int, len(b.items))
	for i := range b.items {
		at[b.items[i].ID] = i
	}
	label := func(id, text string) {
		if i, ok := at[id]; ok {
			b.items[i].Text = truncate(text, b.items[i].Size, b.vw/2)
		}
	}
	clients := "clients · " + sp.Device
	if sp.Mode == "split" {
		clients += " · layers 1–" + itoa(sp.ClientLayers[1])
		label("node/1/label", "compute nodes · "+sp.ComputeGPU+" · "+hopsText(len(sp.Compute)))
	} else {
		clients += " · whole model"
		label("node/1/label", "aggregator · "+sp.ComputeGPU)
	}
	label("node/0/label", clients)
	for i, g := range sp.Clients {
		b.recolour(at, g, colClient, colDarkText)
		if i < len(sp.Speeds) && sp.Speeds[i] != 1 {
			b.badge(at, g, "×"+strconv.FormatFloat(sp.Speeds[i], 'g', 2, 64))
		}
	}
	for k, g := range sp.Compute {
		b.recolour(at, g, colServer, colWhite)
		if k < len(sp.NodeLayers) {
			r := sp.NodeLayers[k]
			b.badge(at, g, "L"+itoa(r[0]+1)+"–"+itoa(r[1]))
		}
	}
}

func hopsText(n int) string {
	if n == 1 {
		return "one hop"
	}
	return itoa(n) + " hops"
}

// recolour fills GPU g's box with fill while it is idle, and its text with
// text.
func (b *builder) recolour(at map[string]int, g int, fill, text Color) {
	i, ok := at["gpu/"+itoa(g)]
	if !ok || b.items[i].Fill != stateStyle[Idle].fill {
		return
	}
	b.items[i].Fill = fill
	for _, part := range []string{"/label", "/state"} {
		if j, ok := at["gpu/"+itoa(g)+part]; ok {
			b.items[j].Fill = text
		}
	}
}

// badge draws text in a small box over the top-right corner of GPU g's
// box, as the parameter server's lag badges do.
func (b *builder) badge(at map[string]int, g int, text string) {
	i, ok := at["gpu/"+itoa(g)]
	if !ok {
		return
	}
	r := b.items[i]
	size := b.size(max(8*b.fs, min(10*b.fs, r.H/4)))
	bw, bh := textWidth(text, size)+8*b.s, size+5*b.s
	if bw > r.W*1.2 {
		return
	}
	id := "gpu/" + itoa(g) + "/badge"
	y := r.Y - bh/2
	if b.compact { // over the box, clear of its name, as lagBadge does
		y = r.Y - bh + 2*b.s
	}
	box := b.rect(id, r.X+r.W-bw+4*b.s, y, bw, bh, colLagOK)
	box.Stroke, box.StrokeWidth = colBoxEdge, max(0.75, b.s)
	b.text(id+"/label", box.X+bw/2, box.Y+bh-3.5*b.s, text, size, colDarkText, AnchorMiddle)
}

// splitCaption says what the round in progress at t is doing, e.g.
// "round 1 of 2 · compute nodes: forward and backward on 800 samples".
func splitCaption(tl *timeline.Timeline, t units.Time) string {
	sp := tl.Split
	k := 0
	for i, r := range sp.Rounds {
		if r.Start <= t {
			k = i
		}
	}
	if len(sp.Rounds) == 0 {
		return ""
	}
	r := sp.Rounds[k]
	head := "round " + itoa(k+1) + " of " + itoa(len(sp.Rounds)) + " · "
	slowest := "client " + itoa(sp.Clients[r.Slowest])
	if sp.Mode != "split" {
		return head + "clients: model down, local steps, weights up; " + slowest + " ends the round"
	}
	switch {
	case t < r.ServerStart:
		return head + "clients forward, activations up; the server waits for all"
	case t < r.ServerEnd && len(sp.Compute) == 1:
		return head + "compute node: forward and backward on every client's batch"
	case t < r.ServerEnd:
		return head + "compute nodes: forward and backward, hop by hop"
	case t < r.End:
		return head + "gradients down, clients backward; " + slowest + " ends the round"
	}
	return head + "done"
}

// splitLines are the metrics box's rows of a split or federated run:
// its length, its rounds and the peak memory.
func (m metrics) splitLines(sp *timeline.Split) [][2]string {
	lines := [][2]string{{"run", m.iteration.String()}}
	if n := len(sp.Rounds); n > 0 {
		var total units.Time
		for _, r := range sp.Rounds {
			total += r.End - r.Start
		}
		lines = append(lines, [2]string{"rounds", itoa(n) + " · mean " + (total / units.Time(n)).String()})
	}
	if m.peak > 0 {
		v := gib(m.peak)
		if m.capacity > 0 {
			v += " of " + gib(m.capacity)
		}
		what := "peak / node"
		if sp.Mode != "split" {
			what = "peak / client"
		}
		lines = append(lines, [2]string{what, v})
	}
	return lines
}

// splitMemoryGPUs are the devices the memory panel shows for a split run:
// the compute nodes (split learning) or the first clients (fedavg).
func splitMemoryGPUs(f *Frames) []int {
	sp := f.tl.Split
	if sp.Mode == "split" {
		return sp.Compute
	}
	return sp.Clients[:min(len(sp.Clients), maxRowsPerGPU)]
}

// splitClientRows is how many clients the strip of a large split run
// shows.
const splitClientRows = 6

// splitRows picks the strip's rows of a split run too large for one row
// per device: the clients that ended a round (the slowest first, in round
// order), then the lowest-numbered others up to splitClientRows, then
// every compute node.
func splitRows(tl *timeline.Timeline) stripRows {
	sp := tl.Split
	n := len(tl.GPUs)
	r := stripRows{row: make([]int, n)}
	for i := range r.row {
		r.row[i] = -1
	}
	add := func(g int) {
		if g >= 0 && g < n && r.row[g] < 0 {
			r.row[g] = len(r.gpus)
			r.gpus = append(r.gpus, g)
			r.stage = append(r.stage, -1)
		}
	}
	for _, rd := range sp.Rounds {
		if len(r.gpus) < splitClientRows && rd.Slowest < len(sp.Clients) {
			add(sp.Clients[rd.Slowest])
		}
	}
	for _, g := range sp.Clients {
		if len(r.gpus) >= splitClientRows {
			break
		}
		add(g)
	}
	shown := len(r.gpus)
	for _, g := range sp.Compute {
		add(g)
	}
	r.note = "showing " + itoa(shown) + " of " + itoa(len(sp.Clients)) + " clients (round-enders first) and every compute node"
	return r
}
