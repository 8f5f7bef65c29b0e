package scene

import (
	"strconv"

	"paraplay/sim/units"
)

// panelWidth is the width of a training run's right-hand column.
func (b *builder) panelWidth() float64 {
	return min(230*b.s, 0.27*b.w)
}

// panel draws a training run's column right of the network view, from top
// to bottom: the run's metrics, then the memory of each shown GPU at t.
func (b *builder) panel(t units.Time, top, bottom float64) {
	x0, x1 := b.vw+4*b.s, b.w-12*b.s
	y := b.metricsBox(x0, x1, top+4*b.s)
	if h := b.detectorHeight(); h > 0 {
		b.detector(t, x0, x1, y+6*b.s)
		y += h
	}
	b.memory(t, box{x0, y + 10*b.s, x1, bottom})
}

// metricsBox writes the metrics as label–value rows from y down and
// returns the y below them. The peak memory turns red when a GPU runs out,
// amber when one is above 90% of its HBM.
func (b *builder) metricsBox(x0, x1, y float64) float64 {
	size := 11 * b.fs
	m := b.f.metrics
	for _, l := range m.lines {
		y += size + 3*b.s
		key := "metrics/" + metricKey(l[0])
		if textWidth(l[0]+"  "+l[1], size) > x1-x0 {
			continue
		}
		b.text(key+"/label", x0, y, l[0], size, colMuted, AnchorStart)
		c := colText
		if l[0] == "peak memory" {
			if _, alert := m.memAlert(); alert != (Color{}) {
				c = alert
			}
		}
		b.text(key, x1, y, l[1], size, c, AnchorEnd).Bold = true
	}
	return y
}

func metricKey(label string) string {
	switch label {
	case "peak memory":
		return "peak-memory"
	case "MFU":
		return "mfu"
	}
	return label
}

// percent prints f as a percentage with one decimal, e.g. "33.7%".
func percent(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" }

// siCount prints v with a k, M or G suffix and three significant digits.
func siCount(v float64) string {
	for _, u := range [...]struct {
		div    float64
		suffix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= u.div {
			return strconv.FormatFloat(v/u.div, 'g', 3, 64) + u.suffix
		}
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// gib prints a size in GiB with one decimal.
func gib(v units.Bytes) string {
	return strconv.FormatFloat(float64(v)/float64(units.GiB), 'f', 1, 64) + " GiB"
}

// trafficLabel names a traffic kind in the legend and the caption.
func trafficLabel(kind string) string {
	switch kind {
	case trafficPP:
		return "pipeline msg"
	case trafficDP:
		return "DP gradients"
	case trafficSDP:
		return "SDP group sums"
	case trafficZeRO:
		return "ZeRO gather"
	case trafficEP:
		return "EP all-to-all"
	case trafficActivations:
		return "activations"
	case trafficGradients:
		return "gradients"
	case trafficModel:
		return "model / weights"
	}
	return "communication"
}
