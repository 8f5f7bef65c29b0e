package pipeline

import (
	"fmt"
	"strings"
)

// Grid renders s as the papers draw it: one row per device, one column per
// time slot, with T_F = T_B = T_W = one slot (a full backward, when the
// schedule does not split it, takes two). An op is written where it starts
// (F3, B3, W3; F3.1 for chunk 1 when v > 1), "--" marks the rest of a
// longer op and "." an idle slot. The header names the schedule and the
// executor's figures in slots.
func Grid(s Schedule) string {
	r := Execute(s, Times{F: 1, B: 1, W: 1})
	width := 2
	for _, ops := range s.Order {
		for _, op := range ops {
			width = max(width, len(op.label(s.Chunks)))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s p=%d m=%d v=%d: makespan %d, bubble %d, peak in-flight", s.Name, s.Stages, s.Microbatches, s.Chunks, int64(r.Makespan), int64(r.Bubble))
	for _, c := range r.PeakChunks {
		fmt.Fprintf(&b, " %s", fraction(c, s.Chunks))
	}
	if r.PeakHeldW != nil {
		fmt.Fprintf(&b, ", held for W %v", r.PeakHeldW)
	}
	if s.Async {
		fmt.Fprintf(&b, ", per microbatch %d, weight versions %v", int64(r.PerMicrobatch), s.WeightVersions)
	}
	b.WriteString("\n")
	for d, spans := range r.Spans {
		row := make([]string, r.Makespan)
		for i := range row {
			row[i] = "."
		}
		for _, sp := range spans {
			row[sp.Start] = sp.Op.label(s.Chunks)
			for t := sp.Start + 1; t < sp.End; t++ {
				row[t] = "--"
			}
		}
		var line strings.Builder
		fmt.Fprintf(&line, "%3d |", d)
		for _, cell := range row {
			fmt.Fprintf(&line, " %-*s", width, cell)
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteString("\n")
	}
	return b.String()
}

// fraction writes c/v in lowest terms, or as an integer when it is one.
func fraction(c, v int) string {
	g := gcd(c, v)
	if v/g == 1 {
		return fmt.Sprint(c / g)
	}
	return fmt.Sprintf("%d/%d", c/g, v/g)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
