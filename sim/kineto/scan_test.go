//go:build !js

package kineto_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"paraplay/sim/kineto"
	"paraplay/sim/kineto/kinetotest"
)

// bothPaths reads data with encoding/json (Read on the command line) and
// with the tokenizer the browser uses (ReadScan), and fails t unless both
// accept it and give the same trace, or both refuse it.
func bothPaths(t *testing.T, data []byte, lim kineto.Limits) (*kineto.Trace, error) {
	t.Helper()
	want, werr := kineto.Read(bytes.NewReader(data), "f.json", lim)
	got, gerr := kineto.ReadScan(iotestHalf(data), "f.json", lim)
	switch {
	case (werr == nil) != (gerr == nil):
		t.Fatalf("encoding/json: %v; tokenizer: %v; on %.300q", werr, gerr, data)
	case werr == nil && !reflect.DeepEqual(got, want):
		t.Fatalf("the tokenizer's trace differs from encoding/json's on %.300q:\n got %+v\nwant %+v", data, got, want)
	}
	return want, werr
}

// iotestHalf reads data in pieces of 1 to 7 bytes, so that every token
// crosses the tokenizer's window.
func iotestHalf(data []byte) io.Reader { return &choppy{b: data} }

type choppy struct {
	b []byte
	n int
}

func (c *choppy) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	c.n++
	k := min(len(p), len(c.b), 1+c.n%7)
	copy(p, c.b[:k])
	c.b = c.b[k:]
	return k, nil
}

// TestScanMatchesJSON holds the browser's tokenizer to encoding/json on
// the shared traces (when present), on traces ParaPlay writes of
// simulated runs, and on hand-made edge cases of the JSON grammar and of
// encoding/json's rules (keys matched ignoring case, null, duplicate
// keys, escapes, bad UTF-8, type errors).
func TestScanMatchesJSON(t *testing.T) {
	lim := kineto.Limits{MaxBytes: 1 << 30, MaxValue: 16 << 20, MaxEvents: 1 << 22}
	t.Run("shared", func(t *testing.T) {
		dir := kinetotest.Dir(t)
		for _, name := range []string{"kineto-a100-128rank-rank0.json.gz", "kineto-a100-128rank-rank1.json.gz", "kineto-nccl-2rank-rank0.json.gz"} {
			f, err := os.Open(dir + "/" + name)
			if err != nil {
				t.Fatal(err)
			}
			r, err := kinetotest.Decompress(f, name)
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(r)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			tr, err := bothPaths(t, data, lim)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes, %d kernels, %d launches, %d GEMM ops the same on both paths", name, len(data), len(tr.Kernels), len(tr.Launches), len(tr.GEMMOps))
		}
	})
	t.Run("written", func(t *testing.T) {
		for _, file := range []string{"pipeline-1f1b.yaml", "ring4.yaml", "inference-pp4.yaml"} {
			tl := simulate(t, file, "")
			_, files := roundTrip(t, tl)
			for _, data := range files {
				if _, err := bothPaths(t, data, lim); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	for i, c := range scanCases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_, err := bothPaths(t, []byte(c.json), lim)
			if (err == nil) != c.ok {
				t.Errorf("%s: error %v, want ok %v", c.json, err, c.ok)
			}
		})
	}
}

// scanCases are edge cases both paths must agree on.
var scanCases = []struct {
	json string
	ok   bool
}{
	{`{"traceEvents": []}`, true},
	{` {"traceEvents":[null]} ` + "\n", true},
	{`{"traceEvents": [], }`, false},
	{`{"traceEvents": [1]}`, false},
	{`{"traceEvents": [{"PH": "X", "Cat": "KERNEL", "NAME": "sgemm", "ts": "5", "dUr": 2, "pid": "x", "tid": 7.0, "ARGS": {"STREAM": 7, "Correlation": 3}}]}`, true},
	{`{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k\u00e9\ud83d\ude00\ud800x\udc00\\\/\b\f\n\r\t", "ts": 1, "dur": 1}]}`, true},
	{"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\xffb\xe2\x82\\u00acc\xed\xa0\x80\", \"ts\": 1, \"dur\": 1}]}", true},
	{"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\x01\", \"ts\": 1, \"dur\": 1}]}", false},
	{`{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 1, "args": {"stream": 1}, "args": {"device": 0}, "name": null}]}`, true},
	{`{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 01, "dur": 1}]}`, false},
	{`{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1.5e1, "dur": -0}]}`, true},
	{`{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": "x", "dur": 1}]}`, false},
	{`{"traceEvents": [{"ph": 5}]}`, false},
	{`{"traceEvents": [{"ph": "X", "pid": true}]}`, false},
	{`{"traceEvents": [{"ph": "X", "pid": [1]}]}`, false},
	{`{"traceEvents": [{"ph": "X", "args": []}]}`, false},
	{`{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 9, "args": {"Input Dims": [[8, 16], [16, 4]], "Input type": ["float", 3, null, {"a": 1}]}}]}`, true},
	{`{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 9, "args": {"Input Dims": [[8, 1.5], [16, 4]]}}]}`, true},
	{`{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce", "ts": 1, "dur": 9, "args": {"paraplay collective": 0, "paraplay ranks": [0, 1], "paraplay ranks": [null, 2, 3], "Collective name": "allreduce"}}]}`, true},
	{`{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce", "ts": 1, "dur": 9, "args": {"paraplay collective": 0, "paraplay ranks": [1.5]}}]}`, false},
	{`{"distributedInfo": {"rank": 1, "world_size": 2, "RANK": null}, "deviceProperties": [null, {"id": 1, "NumSms": 108, "name": "A100"}], "paraplay": null, "traceEvents": []}`, true},
	{`{"distributedInfo": {"rank": "1"}, "traceEvents": []}`, false},
	{`{"distributedInfo": {"world_size": 2.0}, "traceEvents": []}`, false},
	{`{"deviceProperties": {}, "traceEvents": []}`, false},
	{`{"paraplay": {"gpu": 1, "title": "t"}, "traceEvents": []}`, true},
	{`{"other": [[[{"a": [1, "x", true, false, null, {}]}]]], "traceEvents": [{"ph": "X", "x": [[[[]]]]}]}`, true},
	{`{"other": [1 2], "traceEvents": []}`, false},
	{`{"other": {"a" 1}, "traceEvents": []}`, false},
	{`{"traceEvents": []} x`, false},
	{`{"traceEvents": []} {}`, false},
	{`{"traceEvents": [}`, false},
	{`{"traceEvents": [{"ph": "X", "name": "k`, false},
	{`{"traceEvents": [{"ph": "X", "name": "\x"}]}`, false},
	{`{"traceEvents": [{"ph": "X", "name": "\u12G4"}]}`, false},
	{`{"traceEvents": [{"ph": tru}]}`, false},
	{`{"traceEvents": [{"ph": nulll}]}`, false},
	{`[]`, false},
	{``, false},
	{`{}`, false},
	{`{"traceEvents": {}}`, false},
	{`{"traceEvents": [{"ph": "X", "x": ` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}]}`, false},
	{`{"traceEvents": [{"ph": "X", "x": ` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}]}`, true},
	{`{"x": ` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `, "traceEvents": []}`, true},
}

// TestScanGEMMArgs holds the tokenizer's readers of Input Dims and Input
// type to encoding/json's.
func TestScanGEMMArgs(t *testing.T) {
	for _, in := range []string{`[[8, 16], [16, 4]]`, `null`, `[null, [null, 1]]`, `[[1.5]]`, `[[1e2]]`, `"x"`, `[["a"]]`, `[]`, ``, `[[1]] x`,
		`["float", "half"]`, `["a", 1, null, {"b": [2]}, "c"]`, `{"a": 1}`, `[1,]`} {
		gd, gok := kineto.ScanDims([]byte(in))
		wd, wok := kineto.DecodeDims([]byte(in))
		if gok != wok || gok && !reflect.DeepEqual(gd, wd) {
			t.Errorf("dims of %s: got %v %v, want %v %v", in, gd, gok, wd, wok)
		}
		if g, w := kineto.ScanTypes([]byte(in)), kineto.DecodeTypes([]byte(in)); !reflect.DeepEqual(g, w) {
			t.Errorf("types of %s: got %#v, want %#v", in, g, w)
		}
	}
}

// FuzzScan feeds arbitrary bytes to both paths: they must both refuse them
// or give the same trace (bothPaths), and read any GEMM args the same.
func FuzzScan(f *testing.F) {
	for _, c := range scanCases {
		if len(c.json) < 4096 {
			f.Add([]byte(c.json))
		}
	}
	lim := kineto.Limits{MaxBytes: 1 << 20, MaxValue: 1 << 20, MaxEvents: 256}
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan bool)
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				panic(fmt.Sprintf("hang on %q", data))
			}
		}()
		defer close(done)
		bothPaths(t, data, lim)
		gd, gok := kineto.ScanDims(data)
		wd, wok := kineto.DecodeDims(data)
		if gok != wok || gok && !reflect.DeepEqual(gd, wd) {
			t.Fatalf("dims of %q: got %v %v, want %v %v", data, gd, gok, wd, wok)
		}
		if g, w := kineto.ScanTypes(data), kineto.DecodeTypes(data); !reflect.DeepEqual(g, w) {
			t.Fatalf("types of %q: got %#v, want %#v", data, g, w)
		}
	})
}
