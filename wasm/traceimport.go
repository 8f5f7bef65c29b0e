//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"io"
	"syscall/js"

	"paraplay/sim/budget"
	"paraplay/sim/kineto"
	"paraplay/sim/timeline"
	"paraplay/wasm/playground"
)

// Importing a measured run: the page (trace.js) hands the app the files
// the reader dropped or picked, each as a name and a ReadableStream of its
// bytes (gunzipped by the browser's DecompressionStream), read straight
// from the reader's disk: nothing is uploaded. kineto.Read streams each
// through the package's own tokenizer (the wasm has no encoding/json),
// holding the compact kernels and one value at a time; kineto.Timeline
// makes the run, which plays as a simulated one does.

// traceLimits bound one file in the browser: 1 GiB of JSON, one value of
// 16 MiB, a million kept events; readTraces lowers the events so that all
// the files together keep at most budget.Browser.Spans (500,000 kernels:
// about 25 MB of them, 48 bytes each, and their spans).
var traceLimits = kineto.Limits{MaxBytes: 1 << 30, MaxValue: 16 << 20, MaxEvents: 1 << 20}

// maxTraceFiles bounds the ranks imported at once.
const maxTraceFiles = 64

// importTraces reads files (a JS array of {name, stream}) on a goroutine
// of its own and returns a Promise of the run's result, as run returns it;
// the run is shown at the next tick.
func (b *bridge) importTraces(g *game, files js.Value) js.Value {
	var resolve js.Value
	executor := js.FuncOf(func(_ js.Value, a []js.Value) any { resolve = a[0]; return nil })
	p := js.Global().Get("Promise").New(executor)
	executor.Release()
	go func() {
		ss := importSession(g, files)
		g.show(ss)
		resolve.Invoke(b.result(ss))
	}()
	return p
}

// importSession reads and converts the files; every failure is an error
// session, drawn over the canvas.
func importSession(g *game, files js.Value) (ss *session) {
	ss = &session{}
	if cur := g.current(); cur != nil {
		ss.view = cur.view // embed, hide, speed as the page had them
	} else {
		ss.view, _ = playground.ParseView(nil)
	}
	ss.view.Autoplay, ss.view.Start = true, 0
	defer func() {
		if r := recover(); r != nil {
			logPanic(r)
			ss.tl = nil
			ss.fail("This trace cannot be imported", fmt.Errorf("the importer crashed: %v", r))
		}
	}()
	tl, names, err := readTraces(files)
	if err != nil {
		ss.fail("This trace cannot be imported", err)
		return ss
	}
	if n := len(tl.Spans); float64(n) > budget.Browser.Spans {
		ss.fail("This trace is too large for the browser", fmt.Errorf("trace: %d kernels; %s %.0f: import fewer profiler steps, or use paraplay import on the command line", n, budget.Browser.Who, budget.Browser.Spans))
		return ss
	}
	ss.tl = tl
	ss.imported = fmt.Sprintf("%d GPUs measured by the PyTorch profiler (%d files), read in this browser", len(tl.GPUs), len(names))
	ss.pageJSON = func() (controls, metrics []byte) {
		metrics, _ = playground.MetricsJSON(playground.MetricsOf(tl))
		return nil, metrics
	}
	return ss
}

// readTraces reads every file and converts them into one run.
func readTraces(files js.Value) (*timeline.Timeline, []string, error) {
	n := files.Length()
	if n == 0 || n > maxTraceFiles {
		return nil, nil, fmt.Errorf("trace: %d files; import 1..%d, one per rank", n, maxTraceFiles)
	}
	var traces []*kineto.Trace
	var names []string
	kept := 0
	for i := range n {
		f := files.Index(i)
		name := f.Get("name").String()
		// The files share the run's span budget: each may keep what the
		// ones before left, so memory stays bounded however many there are.
		lim := traceLimits
		lim.MaxEvents = max(1, min(lim.MaxEvents, int(budget.Browser.Spans)-kept))
		t, err := kineto.Read(&streamReader{r: f.Get("stream").Call("getReader")}, name, lim)
		if err != nil {
			return nil, nil, err
		}
		traces, names = append(traces, t), append(names, name)
		kept += len(t.Kernels) + len(t.Steps)
	}
	tl, err := kineto.Timeline(traces)
	return tl, names, err
}

// streamReader reads a ReadableStream's default reader, waiting on each
// chunk's promise (on this goroutine, never the event loop's).
type streamReader struct {
	r    js.Value
	left []byte // what the last chunk still holds
	done bool
}

func (s *streamReader) Read(p []byte) (int, error) {
	for len(s.left) == 0 {
		if s.done {
			return 0, io.EOF
		}
		v, err := await(s.r.Call("read"))
		if err != nil {
			return 0, err
		}
		if v.Get("done").Bool() {
			s.done = true
			continue
		}
		chunk := v.Get("value")
		s.left = make([]byte, chunk.Get("byteLength").Int())
		js.CopyBytesToGo(s.left, chunk)
	}
	n := copy(p, s.left)
	s.left = s.left[n:]
	return n, nil
}

// await waits for a promise: its value, or its rejection as an error.
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	ok := js.FuncOf(func(_ js.Value, a []js.Value) any { ch <- result{v: a[0]}; return nil })
	bad := js.FuncOf(func(_ js.Value, a []js.Value) any {
		ch <- result{err: errors.New("reading the file failed: " + js.Global().Get("String").Invoke(a[0]).String())}
		return nil
	})
	defer ok.Release()
	defer bad.Release()
	p.Call("then", ok, bad)
	r := <-ch
	return r.v, r.err
}
