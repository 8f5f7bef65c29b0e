package scene

import (
	"fmt"
	"strconv"
	"strings"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Describe says in a few lines of plain text what the thing HitTest named
// by id is and what it does at instant t: a GPU's state and the message it
// sends, a link's bandwidth and load, a packet's chunk, bytes, step and
// progress, a switch, a node, or a stretch of the strip. It returns "" for
// an ID it does not know or that is out of range, so a caller can hide its
// tooltip. The text is meant for textContent, never for markup.
func Describe(tl *timeline.Timeline, id string, t units.Time) string {
	if tl == nil {
		return ""
	}
	parts := strings.Split(id, "/")
	num := func(i int) int {
		if i >= len(parts) {
			return -1
		}
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			return -1
		}
		return n
	}
	switch parts[0] {
	case "gpu":
		return describeGPU(tl, num(1), t)
	case "link":
		// A pair of links drawn as one line: "link/<i>+<j>".
		if a, z, pair := strings.Cut(strings.Join(parts[1:], "/"), "+"); pair {
			i, err1 := strconv.Atoi(a)
			j, err2 := strconv.Atoi(z)
			if err1 != nil || err2 != nil {
				return ""
			}
			one, other := describeLink(tl, i, t), describeLink(tl, j, t)
			if one == "" || other == "" {
				return ""
			}
			return one + "\n\n" + other
		}
		return describeLink(tl, num(1), t)
	case "switch":
		return describeSwitch(tl, num(1))
	case "xfer":
		return describeTransfer(tl, num(1), t)
	case "node":
		return describeNode(tl, num(1), t)
	case "strip":
		switch {
		case len(parts) == 3 && parts[1] == "span":
			return describeSpan(tl, num(2))
		case len(parts) == 3 && parts[1] == "send":
			return describeTransfer(tl, num(2), t)
		case len(parts) == 4 && parts[1] == "collective":
			return describeSpanCollective(tl, num(2), num(3))
		}
	}
	return ""
}

// vertexName names a GPU or a switch by vertex id.
func vertexName(tl *timeline.Timeline, v int) string {
	switch {
	case v >= 0 && v < len(tl.GPUs):
		return gpuName(tl, v)
	case v >= len(tl.GPUs) && v < len(tl.GPUs)+len(tl.Switches):
		if sw := tl.Switches[v-len(tl.GPUs)]; sw.Name != "" {
			return sw.Name
		}
		return "switch " + itoa(v)
	}
	return "vertex " + itoa(v)
}

func describeGPU(tl *timeline.Timeline, g int, t units.Time) string {
	if g < 0 || g >= len(tl.GPUs) {
		return ""
	}
	var b strings.Builder
	b.WriteString("GPU " + itoa(g))
	if name := gpuName(tl, g); name != "GPU "+itoa(g) {
		b.WriteString(" · " + name)
	}
	if len(tl.Switches) > 0 {
		fmt.Fprintf(&b, " · node %d", tl.GPUs[g].Node)
	}
	fmt.Fprintf(&b, "\nstate at %s: %s", timeLabel(t), StateAt(tl, g, t))
	for i := range tl.Spans {
		if s := &tl.Spans[i]; s.GPU == g && s.Start <= t && t < s.End {
			fmt.Fprintf(&b, " (%s %s, %s–%s)", s.Kind, s.Label, timeLabel(s.Start), timeLabel(s.End))
			break
		}
	}
	if st, f := tl.StateAt(g, t); st != "" {
		fmt.Fprintf(&b, "\nfault: %s", st)
		if f > 0 {
			fmt.Fprintf(&b, " (keeps %.0f%% of its speed)", 100*f)
		}
	} else if slowAt(tl, g, t) {
		b.WriteString("\nfault: slow")
	}
	sending, receiving := 0, 0
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		if x.Start <= t && t < x.End {
			if x.Src == g {
				sending++
			}
			if x.Dst == g {
				receiving++
			}
		}
	}
	if sending+receiving > 0 {
		fmt.Fprintf(&b, "\nsending %d, receiving %d messages", sending, receiving)
	}
	var compute, comm units.Time
	for i := range tl.Spans {
		if s := &tl.Spans[i]; s.GPU == g {
			compute += s.End - s.Start
		}
	}
	for i := range tl.Transfers.Len() {
		if x := tl.Transfers.At(i); x.Src == g {
			comm += x.End - x.Start
		}
	}
	fmt.Fprintf(&b, "\ncompute %s, sending %s in all", timeLabel(compute), timeLabel(comm))
	return b.String()
}

func describeLink(tl *timeline.Timeline, l int, t units.Time) string {
	if l < 0 || l >= len(tl.Links) {
		return ""
	}
	k := tl.Links[l]
	var b strings.Builder
	fmt.Fprintf(&b, "link %d · %s → %s\n%v, latency %v", l, vertexName(tl, k.From), vertexName(tl, k.To), k.Bandwidth, k.Latency)
	var rate float64
	n := 0
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		for _, p := range x.Path {
			if p == l && x.Start <= t && t < x.End {
				rate += rateAt(&x, t)
				n++
			}
		}
	}
	load := 0.0
	if k.Bandwidth > 0 {
		load = rate / float64(k.Bandwidth)
	}
	fmt.Fprintf(&b, "\nload at %s: %.0f%% (%d messages)", timeLabel(t), 100*load, n)
	return b.String()
}

func describeSwitch(tl *timeline.Timeline, v int) string {
	j := v - len(tl.GPUs)
	if j < 0 || j >= len(tl.Switches) {
		return ""
	}
	sw := tl.Switches[j]
	s := fmt.Sprintf("switch %d · %s\n%s", v, vertexName(tl, v), sw.Kind)
	if sw.Node >= 0 {
		s += fmt.Sprintf(" in node %d", sw.Node)
	}
	return s
}

func describeNode(tl *timeline.Timeline, n int, t units.Time) string {
	var gpus []int
	for i, g := range tl.GPUs {
		if g.Node == n {
			gpus = append(gpus, i)
		}
	}
	if len(gpus) == 0 {
		return ""
	}
	// What its GPUs are doing: the only way to read a node drawn as one
	// bar of states (nodeStates).
	var count [256]int
	for _, g := range gpus {
		count[StateAt(tl, g, t)]++
	}
	var states []string
	for st, k := range count {
		if k > 0 {
			states = append(states, itoa(k)+" "+State(st).String())
		}
	}
	return fmt.Sprintf("node %d\n%d GPUs: GPU %d–%d\nnow: %s", n, len(gpus), gpus[0], gpus[len(gpus)-1], strings.Join(states, ", "))
}

func describeTransfer(tl *timeline.Timeline, k int, t units.Time) string {
	if k < 0 || k >= tl.Transfers.Len() {
		return ""
	}
	x := tl.Transfers.At(k)
	var b strings.Builder
	fmt.Fprintf(&b, "packet %d · chunk %d, %v\n%s → %s", k, x.Chunk, x.Bytes, vertexName(tl, x.Src), vertexName(tl, x.Dst))
	if len(x.Path) > 1 {
		fmt.Fprintf(&b, " over %d links", len(x.Path))
	}
	if channelsOf(tl, &x) > 1 {
		ch, nic := "several channels' slices in one message", ""
		if x.Channel >= 0 {
			ch = "channel " + itoa(int(x.Channel))
		}
		for _, id := range x.Path { // the first switch outside the node: its NIC's leaf
			if id < 0 || id >= len(tl.Links) || nic != "" {
				continue
			}
			if v := tl.Links[id].To - len(tl.GPUs); v >= 0 && v < len(tl.Switches) && tl.Switches[v].Node < 0 {
				nic = ", leaves its node by " + vertexName(tl, v+len(tl.GPUs))
			}
		}
		b.WriteString("\n" + ch + nic)
	}
	if x.Collective >= 0 && x.Collective < len(tl.Collectives) {
		fmt.Fprintf(&b, "\n%s", collectiveName(&tl.Collectives[x.Collective]))
		if x.Phase != "" {
			fmt.Fprintf(&b, " · %s", x.Phase)
		}
		fmt.Fprintf(&b, ", step %d", x.Step+1)
	}
	fmt.Fprintf(&b, "\n%s–%s", timeLabel(x.Start), timeLabel(x.End))
	if x.Start <= t && t < x.End && x.Bytes > 0 {
		fmt.Fprintf(&b, ", %.0f%% sent at %s", 100*x.BytesAt(t)/float64(x.Bytes), timeLabel(t))
	}
	return b.String()
}

func describeSpan(tl *timeline.Timeline, k int) string {
	if k < 0 || k >= len(tl.Spans) {
		return ""
	}
	s := &tl.Spans[k]
	return fmt.Sprintf("%s %s on %s\n%s–%s (%s)", s.Kind, clipLabel(s.Label), vertexName(tl, s.GPU), timeLabel(s.Start), timeLabel(s.End), timeLabel(s.End-s.Start))
}

// clipLabel shortens a long label for the inspector: a measured kernel's
// demangled C++ name runs to thousands of characters, most of them its
// argument list, which is cut (then the rest past 120 characters).
func clipLabel(s string) string {
	if len(s) <= 120 {
		return s
	}
	if i := strings.IndexByte(s, '('); i > 0 {
		s = s[:i] + "(…)"
	}
	if len(s) > 120 {
		s = strings.ToValidUTF8(s[:117], "") + "…"
	}
	return s
}

func describeSpanCollective(tl *timeline.Timeline, k, g int) string {
	cs := spanCollectives(tl)
	if k < 0 || k >= len(cs) || g < 0 || g >= len(tl.GPUs) {
		return ""
	}
	c := cs[k]
	return fmt.Sprintf("%s on %s (analytic, one span)\n%d ranks, %v\n%s–%s", collectiveName(c), vertexName(tl, g), c.Ranks, c.Bytes, timeLabel(c.Start), timeLabel(c.End))
}
