package scene

import (
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// servingLook draws a serving run (Timeline.Inference) as a training run
// is, with three additions: its metrics box gives the serving headline
// (tokens/s, time to first token, time per output token, KV room, bubbles
// by kind), its memory bars stack weights, workspace and a KV cache that
// grows with every token, and the strip fills each GPU's idle time with
// the tint of its bubble's kind, so SiPipe's three kinds of bubble can be
// told apart.
var servingLook = look{
	training:   true,
	labelSpans: true,
	rows:       stageRows,
	metrics:    servingMetrics,
	legend:     servingEntries,
	caption:    servingRunCaption,
	traffic:    collectiveTraffic,
	memGPUs:    stripGPUs,
	memParts:   servingMemParts,
	underSpans: (*builder).bubbles,
}

// servingEntries is a training run's legend with the bubble kinds.
func servingEntries(f *Frames) []legendEntry { return trainingEntries(f, bubbleEntries()...) }

// servingMetrics reads the serving headline off Timeline.Summarize.
func servingMetrics(tl *timeline.Timeline) *metrics {
	m := trainingMetrics(tl, nil)
	m.lines = m.servingLines(tl.Summarize().Inference)
	return &m
}

// servingRunCaption names the serving plan and the traffic in flight, or
// the recovery under way.
func servingRunCaption(f *Frames, t units.Time, live []int32) string {
	if r := recoveryCaption(f.tl, t); r != "" {
		return r
	}
	return trainingCaption(f.tl, t, live, servingCaption(f.tl.Inference))
}

// servingMemParts are a serving run's weights, borrowed-weight buffer,
// workspace and KV cache.
var servingMemParts = []memPart{{0, "weights"}, {3, "borrowed"}, {4, "workspace"}, {5, "KV cache"}}

// bubbleStyles are the bubble kinds the strip tints, with their legend
// labels; fill and drain stay blank.
var bubbleStyles = [...]struct {
	kind, label string
	fill        Color
}{
	{timeline.BubbleImbalance, "bubble: imbalance", colImbalance},
	{timeline.BubbleIntraStage, "bubble: intra-stage", colIntraStage},
	{timeline.BubbleInterStage, "bubble: inter-stage", colInterStage},
}

// bubbleEntries are the legend's swatches for the bubble kinds.
func bubbleEntries() []legendEntry {
	out := make([]legendEntry, len(bubbleStyles))
	for i, s := range bubbleStyles {
		out[i] = legendEntry{"bubble-" + s.kind, s.label, s.fill, Color{}}
	}
	return out
}

// bubbleFill is the tint of a bubble kind, and false for fill and drain.
func bubbleFill(kind string) (Color, bool) {
	for _, s := range bubbleStyles {
		if s.kind == kind {
			return s.fill, true
		}
	}
	return Color{}, false
}

// bubbles tints the span lane of each shown GPU's idle intervals by kind.
// Neighbouring bubbles of one kind closer than a pixel merge into one
// rect, so a row holds at most about the strip's width of them.
func (b *builder) bubbles(g stripLayout) {
	in := b.f.tl.Inference
	rows := &b.f.rows
	top, h, _, _ := b.lanes()
	slack := g.pixel()
	var cur timeline.Bubble
	first, open := 0, false
	emit := func() {
		if !open {
			return
		}
		c, ok := bubbleFill(cur.Kind)
		row := rows.row[cur.GPU]
		x0, x1 := g.x(cur.Start), g.x(cur.End)
		if ok && x1-x0 >= 0.5 {
			y := g.top + float64(row)*g.rowH + g.rowH*top
			b.rect("strip/bubble/"+itoa(first), x0, y, x1-x0, g.rowH*h, c)
		}
		open = false
	}
	for i, x := range in.Bubbles {
		if x.GPU < 0 || x.GPU >= len(rows.row) || rows.row[x.GPU] < 0 {
			continue
		}
		if open && x.GPU == cur.GPU && x.Kind == cur.Kind && x.Start <= cur.End+slack {
			cur.End = max(cur.End, x.End)
			continue
		}
		emit()
		cur, first, open = x, i, true
	}
	emit()
}

// servingLines are the metrics box of a serving run, whose headline is s.
func (m metrics) servingLines(s *timeline.InferenceSummary) [][2]string {
	lines := [][2]string{
		{"run", m.iteration.String()},
		{"throughput", siCount(s.TokensPerSecond) + " tokens/s"},
		{"TTFT", s.TTFT.String()},
		{"TPOT", s.TPOT.String()},
		{"KV room", siCount(float64(s.KVCapacity)) + " tokens"},
	}
	for _, st := range bubbleStyles {
		lines = append(lines, [2]string{st.kind, percent(s.BubbleShare[st.kind])})
	}
	return m.peakLine(lines)
}

// servingCaption names a serving run's plan for the caption line, e.g.
// "serving: 4-stage pipeline, sampling on the CPU".
func servingCaption(in *timeline.Inference) string {
	text := "serving: "
	switch in.Shared {
	case "fetch":
		text += itoa(in.Replicas) + " GPUs share the layers, fetching weights"
	case "ship":
		text += itoa(in.Replicas) + " GPUs share the layers, shipping activations"
	default:
		switch {
		case in.Stages > 1:
			text += itoa(in.Stages) + "-stage pipeline"
			if in.Replicas > 1 {
				text += " × " + itoa(in.Replicas) + " replicas"
			}
		case in.Replicas > 1:
			text += itoa(in.Replicas) + " replicas of one GPU"
		default:
			text += "one GPU"
		}
	}
	if in.Sampling == "cpu" {
		text += ", sampling on the CPU"
	}
	return text
}
