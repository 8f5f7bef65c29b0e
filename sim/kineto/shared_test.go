//go:build !js

package kineto_test

import (
	"encoding/json"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/kineto"
	"paraplay/sim/kineto/kinetotest"
	"paraplay/sim/units"
)

// sharedTraces are the real traces of ../shared/traces (see its README).
var sharedTraces = []string{"kineto-a100-128rank-rank0.json.gz", "kineto-a100-128rank-rank1.json.gz", "kineto-nccl-2rank-rank0.json.gz"}

// rawKernel is a GPU activity as the test reads it, apart from the reader.
type rawKernel struct {
	cat, name  string
	start, end units.Time
	args       map[string]any
}

// exactNS reads a JSON number of µs as ns with math/big: no float64.
func exactNS(t *testing.T, n json.Number) units.Time {
	r, ok := new(big.Rat).SetString(n.String())
	if !ok {
		t.Fatalf("not a number: %q", n)
	}
	r.Mul(r, big.NewRat(1000, 1))
	num := new(big.Int).Add(new(big.Int).Mul(r.Num(), big.NewInt(2)), r.Denom())
	q := new(big.Int).Quo(num, new(big.Int).Mul(r.Denom(), big.NewInt(2))) // round half up
	return units.Time(q.Int64())
}

// decodeWhole reads a shared trace the simple way: the whole file into
// maps, then its GPU activities and ProfilerSteps.
func decodeWhole(t *testing.T, name string) (kernels []rawKernel, steps [][2]units.Time) {
	f, err := os.Open(kinetotest.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := kinetotest.Decompress(f, name)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var doc struct{ TraceEvents []map[string]any }
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	for _, e := range doc.TraceEvents {
		cat, _ := e["cat"].(string)
		name, _ := e["name"].(string)
		if e["ph"] != "X" {
			continue
		}
		start := exactNS(t, e["ts"].(json.Number))
		end := start + exactNS(t, e["dur"].(json.Number))
		switch {
		case cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset":
			args, _ := e["args"].(map[string]any)
			kernels = append(kernels, rawKernel{cat, name, start, end, args})
		case strings.HasPrefix(name, "ProfilerStep#"):
			steps = append(steps, [2]units.Time{start, end})
		}
	}
	return kernels, steps
}

// unionLength is the length of the union of intervals, by a sweep over
// their sorted ends.
func unionLength(ivs [][2]units.Time) units.Time {
	slices.SortFunc(ivs, func(a, b [2]units.Time) int { return int(a[0] - b[0]) })
	var sum, end units.Time
	end = -1 << 62
	for _, iv := range ivs {
		if iv[0] > end {
			sum += iv[1] - iv[0]
			end = iv[1]
		} else if iv[1] > end {
			sum += iv[1] - end
			end = iv[1]
		}
	}
	return sum
}

// TestSharedTracesDirectSums holds each shared trace's per-rank figures
// to sums computed straight from its events: compute (kernels other than
// NCCL's), memory (copies and sets), communication (NCCL kernels) and
// idle (the window less their union) equal the unions of the raw
// intervals; Summarize on the imported timeline agrees; and every NCCL
// kernel is listed with its size and duration.
func TestSharedTracesDirectSums(t *testing.T) {
	for _, name := range sharedTraces {
		t.Run(name, func(t *testing.T) {
			raw, steps := decodeWhole(t, name)
			tr := kinetotest.Read(t, name)
			reps, err := kineto.Analyze([]*kineto.Trace{tr})
			if err != nil {
				t.Fatal(err)
			}
			rep := reps[0]
			var compute, memory, comm, all [][2]units.Time
			lo, hi := units.Time(1<<62), units.Time(-1<<62)
			var ncclWant []rawKernel
			for _, k := range raw {
				iv := [2]units.Time{k.start, k.end}
				all = append(all, iv)
				lo, hi = min(lo, k.start), max(hi, k.end)
				switch {
				case strings.Contains(strings.ToLower(k.name), "nccl"):
					comm = append(comm, iv)
					ncclWant = append(ncclWant, k)
				case k.cat != "kernel":
					memory = append(memory, iv)
				default:
					compute = append(compute, iv)
				}
			}
			for _, s := range steps {
				lo, hi = min(lo, s[0]), max(hi, s[1])
			}
			for _, c := range []struct {
				what      string
				got, want units.Time
			}{
				{"compute", rep.Compute, unionLength(compute)},
				{"memory", rep.Memory, unionLength(memory)},
				{"communication", rep.Communication, unionLength(comm)},
				{"window", rep.Window, hi - lo},
				{"idle", rep.Idle, hi - lo - unionLength(all)},
				{"exposed + overlap", rep.Exposed + rep.Overlap, unionLength(comm)},
			} {
				if c.got != c.want {
					t.Errorf("%s: got %v, want %v (direct sum over the trace's events)", c.what, c.got, c.want)
				}
			}
			checkNCCL(t, rep.NCCL, ncclWant)
			checkSummary(t, tr, rep, unionLength(append(compute, memory...)))
			t.Logf("rank %d: window %v, step %v, compute %v, memory %v, communication %v (exposed %v), idle %v (waiting on the host %v), %d NCCL kernels",
				rep.Rank, rep.Window, rep.StepTime, rep.Compute, rep.Memory, rep.Communication, rep.Exposed, rep.Idle, rep.HostBound, len(rep.NCCL))
		})
	}
}

// checkNCCL holds the listed NCCL kernels to the raw ones: same count,
// order, durations, and sizes (In msg nelems × the dtype's size).
func checkNCCL(t *testing.T, got []kineto.NCCLKernel, want []rawKernel) {
	t.Helper()
	slices.SortStableFunc(want, func(a, b rawKernel) int { return int(a.start - b.start) })
	if len(got) != len(want) {
		t.Fatalf("%d NCCL kernels listed, want %d", len(got), len(want))
	}
	size := map[string]int64{"Float": 4, "Long": 8, "Half": 2, "BFloat16": 2, "Int": 4, "Byte": 1}
	for i, w := range want {
		g := got[i]
		if g.Time != w.end-w.start || g.Name != w.name {
			t.Errorf("nccl[%d]: %s %v, want %s %v", i, g.Name, g.Time, w.name, w.end-w.start)
		}
		n, ok := w.args["In msg nelems"].(json.Number)
		if !ok {
			continue // the 128-rank job's send/recv kernels carry no sizes
		}
		elems, _ := n.Int64()
		if wantBytes := units.Bytes(elems * size[w.args["dtype"].(string)]); g.Bytes != wantBytes || g.Bytes == 0 {
			t.Errorf("nccl[%d]: %v, want %v (%d × %s)", i, g.Bytes, wantBytes, elems, w.args["dtype"])
		}
	}
}

// checkSummary holds Summarize on the imported timeline to the report: a
// GPU's compute there is the union of its spans (kernels, copies and sets)
// and its communication the union of its collectives.
func checkSummary(t *testing.T, tr *kineto.Trace, rep kineto.RankReport, work units.Time) {
	t.Helper()
	tl, err := kineto.Timeline([]*kineto.Trace{tr})
	if err != nil {
		t.Fatal(err)
	}
	s := tl.Summarize()
	if g := s.GPUs[0]; g.Compute != work || g.Communication != rep.Communication {
		t.Errorf("summary: compute %v, communication %v; want %v (kernels, copies and sets) and %v", g.Compute, g.Communication, work, rep.Communication)
	}
}
