package main

import (
	"fmt"
	"io"
	"strings"

	"paraplay/sim/kineto"
	"paraplay/sim/units"
)

// maxListedNCCL is how many NCCL kernels a rank's text report lists (its
// JSON lists every one).
const maxListedNCCL = 40

// writeRankReport prints the report of one GPU: where it came from, its step
// time, the split of its window, its kernels by class, its top kernels
// and its NCCL kernels with their sizes, times and bandwidths.
func writeRankReport(w io.Writer, r *kineto.RankReport) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	pct := func(t units.Time) string {
		if r.Window == 0 {
			return "0%"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(t)/float64(r.Window))
	}
	p("GPU %d, %s: %s", r.GPU, r.Name, r.File)
	if r.Rank >= 0 {
		p(" (%d ranks)", r.WorldSize)
	}
	if r.Device != "" {
		p(", %s", r.Device)
	}
	p("\n")
	if len(r.Steps) > 0 {
		p("  step time             %v  (mean of %d ProfilerSteps: %s)\n", r.StepTime, len(r.Steps), times(r.Steps))
	} else {
		p("  step time             %v  (no ProfilerStep annotations: the GPU's window)\n", r.StepTime)
	}
	p("  window                %v\n", r.Window)
	p("  compute               %v  (%s)\n", r.Compute, pct(r.Compute))
	p("  memory copies/sets    %v  (%s)\n", r.Memory, pct(r.Memory))
	p("  communication         %v  (%s)\n", r.Communication, pct(r.Communication))
	p("  exposed communication %v  (%s; overlapped with compute or copies %v)\n", r.Exposed, pct(r.Exposed), r.Overlap)
	p("  idle                  %v  (%s; waiting on the host's launches %v)\n", r.Idle, pct(r.Idle), r.HostBound)
	p("  host runtime calls    %d, %v\n", r.Launches, r.RuntimeTime)
	var classes []string
	for _, c := range r.Classes {
		classes = append(classes, fmt.Sprintf("%s %v (%d)", c.Class, c.Time, c.Count))
	}
	p("  kernels by class      %s\n", strings.Join(classes, ", "))
	p("  top kernels           %12s %7s  %-11s %s\n", "time", "count", "class", "name")
	for _, k := range r.Top {
		p("                        %12v %7d  %-11s %s\n", k.Time, k.Count, k.Class, shortName(k.Name, 70))
	}
	writeNCCLKernels(w, r)
}

// writeNCCLKernels lists the collective kernels, at most maxListedNCCL.
func writeNCCLKernels(w io.Writer, r *kineto.RankReport) {
	if len(r.NCCL) == 0 {
		fmt.Fprintf(w, "  NCCL kernels          none\n")
		return
	}
	fmt.Fprintf(w, "  NCCL kernels          %d\n", len(r.NCCL))
	fmt.Fprintf(w, "    %12s %12s  %-15s %10s %8s %5s %10s %10s  %s\n", "start", "time", "op", "bytes", "dtype", "group", "algbw", "busbw", "kernel")
	for i, n := range r.NCCL {
		if i == maxListedNCCL {
			fmt.Fprintf(w, "    … and %d more (--json lists every one)\n", len(r.NCCL)-i)
			break
		}
		bytes, group := "?", "?"
		if n.Bytes > 0 {
			bytes = n.Bytes.String()
		}
		if n.GroupSize > 0 {
			group = fmt.Sprint(n.GroupSize)
		}
		fmt.Fprintf(w, "    %12v %12v  %-15s %10s %8s %5s %10s %10s  %s\n", n.Start, n.Time, n.Op.Label(), bytes, orDash(n.DType), group,
			gbps(n.AlgBW), gbps(n.BusBW), shortName(n.Name, 50))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func gbps(b units.Bandwidth) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fGB/s", float64(b)/1e9)
}

// times lists durations, the first few.
func times(ts []units.Time) string {
	var out []string
	for i, t := range ts {
		if i == 6 {
			out = append(out, fmt.Sprintf("… %d more", len(ts)-i))
			break
		}
		out = append(out, t.String())
	}
	return strings.Join(out, ", ")
}

// shortName drops a kernel name's "void " and argument list (the first
// "(" outside its template arguments, "(anonymous namespace)" aside), and
// cuts it to n runes.
func shortName(name string, n int) string {
	name = strings.TrimPrefix(name, "void ")
	name = strings.ReplaceAll(name, "(anonymous namespace)", "{anon}")
	depth := 0
	for i, c := range name {
		switch c {
		case '<':
			depth++
		case '>':
			depth--
		case '(':
			if depth == 0 && i > 0 {
				name = name[:i]
			}
		}
		if c == '(' && depth == 0 && i > 0 {
			break
		}
	}
	if r := []rune(name); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return name
}
