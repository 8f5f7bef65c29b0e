package nccllog_test

import (
	"strings"
	"testing"

	"paraplay/sim/nccllog"
)

// newLog is a log in the layout nccl-tests 2.13 and later print, with a
// root and #wrong columns and the "Collective test starting" line.
const newLog = `# Collective test starting: all_reduce_perf
# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid   6899 on node-a device  0 [0000:04:00] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid   6900 on node-a device  1 [0000:05:00] NVIDIA H100 80GB HBM3
#  Rank  2 Group  0 Pid   6733 on node-b device  0 [0000:04:00] NVIDIA H100 80GB HBM3
#  Rank  3 Group  0 Pid   6734 on node-b device  1 [0000:05:00] NVIDIA H100 80GB HBM3
#
#                                                              out-of-place                       in-place          
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       
           8             2     float     sum      -1    135.8    0.00    0.00      0    123.5    0.00    0.00      0
  8589934592    2147483648     float     sum      -1    47535  180.71  338.82      0    47743  179.92  337.35      0
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 70.742 
`

// oldLog is the layout of older nccl-tests: no root column, "error"
// instead of "#wrong", and an all-to-all's in-place run as N/A.
const oldLog = `#                                                     out-of-place                       in-place
#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error
#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
     1048576        262144   float    none    51.20   20.48   17.92  0e+00      N/A     N/A     N/A    N/A
`

func TestParse(t *testing.T) {
	l, err := nccllog.Parse(strings.NewReader(newLog))
	if err != nil {
		t.Fatal(err)
	}
	if l.Op != "all_reduce" || len(l.Ranks) != 4 || l.Hosts() != 2 || l.Ranks[3].Device != "NVIDIA H100 80GB HBM3" || len(l.Rows) != 2 {
		t.Fatalf("op %q, %d ranks on %d hosts (%+v), %d rows", l.Op, len(l.Ranks), l.Hosts(), l.Ranks, len(l.Rows))
	}
	want := nccllog.Row{Size: 8589934592, Count: 2147483648, Type: "float", Redop: "sum", Root: -1,
		Out: nccllog.Measure{Time: 47535, AlgBW: 180.71, BusBW: 338.82, OK: true},
		In:  nccllog.Measure{Time: 47743, AlgBW: 179.92, BusBW: 337.35, OK: true}}
	if l.Rows[1] != want {
		t.Errorf("row %+v, want %+v", l.Rows[1], want)
	}
	l, err = nccllog.Parse(strings.NewReader(oldLog))
	if err != nil {
		t.Fatal(err)
	}
	if r := l.Rows[0]; r.Size != 1048576 || r.Redop != "none" || r.Root != -1 || r.Out.Time != 51.2 || r.Out.BusBW != 17.92 || r.In.OK {
		t.Errorf("old row %+v", r)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "no rows"},
		{"comments only", "# nThread 1\n# Avg bus bandwidth : 0\n", "no rows"},
		{"bad time", "8 2 float sum -1 fast 0.00 0.00 0 1.0 0.00 0.00 0\n", `line 1: out-of-place time "fast"`},
		{"negative", "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n8 2 float sum -1 1.0 0.00 -3 0 1.0 0.00 0.00 0\n", `line 2: out-of-place busbw "-3"`},
		{"short row", "8 2 float sum -1 1.0\n", "line 1: 6 fields; the layout needs 13"},
		{"bad size", "99999999999999999999 2 float sum -1 1 1 1 0 1 1 1 0\n", "line 1:"},
		{"long line", strings.Repeat("x", 5000) + "\n", "longer than 4096 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := nccllog.Parse(strings.NewReader(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// FuzzParse: any text gives a log or an error, never a panic; every row
// of a log has sizes and times at least 0.
func FuzzParse(f *testing.F) {
	f.Add(newLog)
	f.Add(oldLog)
	f.Add("8 2 float sum -1 1.0 0.00 0.00 0 N/A N/A N/A N/A\n")
	f.Fuzz(func(t *testing.T, in string) {
		l, err := nccllog.Parse(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, r := range l.Rows {
			if r.Size < 0 || r.Out.Time < 0 || r.In.Time < 0 || r.Count < 0 {
				t.Fatalf("row %+v", r)
			}
		}
	})
}
