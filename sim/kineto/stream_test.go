//go:build !js

package kineto_test

import (
	"fmt"
	"io"
	"runtime"
	"sync"
	"testing"
	"time"

	"paraplay/sim/kineto"
)

// syntheticTrace is an endless-looking trace made on the fly: the file's
// opening, then kernel events shaped as Kineto writes them (every arg a
// real kernel carries, 460-odd bytes each, a few dozen names, three
// streams), until size bytes; then the list and the object close. It is
// the worst case for memory: every event is GPU work the reader keeps.
type syntheticTrace struct {
	size, n int64
	buf     []byte
	event   int
	closed  bool
}

func newSyntheticTrace(size int64) *syntheticTrace {
	return &syntheticTrace{size: size, buf: []byte(`{"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8}, "traceEvents": [` + "\n")}
}

func (s *syntheticTrace) Read(p []byte) (int, error) {
	for len(s.buf) < len(p) && !s.closed {
		if s.n+int64(len(s.buf)) >= s.size {
			s.buf = append(s.buf, "\n]}\n"...)
			s.closed = true
			break
		}
		if s.event > 0 {
			s.buf = append(s.buf, ",\n"...)
		}
		i := s.event
		s.buf = fmt.Appendf(s.buf, `  {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >(int, %d)", "pid": 0, "tid": %d, "ts": %d.%03d, "dur": %d.%03d, "args": {"External id": %d, "queued": 0, "device": 0, "context": 1, "stream": %d, "correlation": %d, "registers per thread": 32, "shared memory": 0, "blocks per SM": 0.592593, "warps per SM": 2.370370, "grid": [64, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %%": 4}}`,
			i%40, 7+i%3*13, 1682725898000000+int64(i)*7, i%1000, 3+i%5, i%997, 100000+i, 7+i%3*13, 5000000+i)
		s.event++
	}
	n := copy(p, s.buf)
	s.buf = s.buf[:copy(s.buf, s.buf[n:])]
	s.n += int64(n)
	if n == 0 && s.closed {
		return 0, io.EOF
	}
	return n, nil
}

// peakMemory runs f while sampling the memory the Go runtime holds from
// the operating system (MemStats.Sys less what it returned: the process's
// heap, stacks and runtime structures) every 20 ms, and returns its peak.
func peakMemory(f func()) uint64 {
	var peak uint64
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			mu.Lock()
			peak = max(peak, m.Sys-m.HeapReleased)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	mu.Lock()
	defer mu.Unlock()
	return max(peak, m.Sys-m.HeapReleased)
}

// readSynthetic streams a synthetic trace of size bytes through Read,
// then converts it with Timeline; it returns the kernels read and the peak
// memory of each step (the trace Read returns is still held during the
// conversion, as paraplay import holds it).
func readSynthetic(tb testing.TB, size int64) (kernels int, readPeak, importPeak uint64) {
	return readSyntheticWith(tb, size, kineto.Read)
}

// readSyntheticWith is readSynthetic through read (Read, or ReadScan: the
// browser's tokenizer).
func readSyntheticWith(tb testing.TB, size int64, read func(io.Reader, string, kineto.Limits) (*kineto.Trace, error)) (kernels int, readPeak, importPeak uint64) {
	runtime.GC()
	var tr *kineto.Trace
	readPeak = peakMemory(func() {
		var err error
		if tr, err = read(newSyntheticTrace(size), "synthetic.json", kineto.Limits{}); err != nil {
			tb.Fatal(err)
		}
	})
	importPeak = peakMemory(func() {
		if _, err := kineto.Timeline([]*kineto.Trace{tr}); err != nil {
			tb.Fatal(err)
		}
	})
	return len(tr.Kernels), readPeak, max(readPeak, importPeak)
}

// TestStreamedMemory reads a 64 MB synthetic trace (about 120,000 kernels)
// and holds the process's memory under 100 MB while it reads and 150 MB
// while it converts: the reader keeps compact kernels, never the file.
// BenchmarkRead1GB does the same with 1 GB.
func TestStreamedMemory(t *testing.T) {
	kernels, read, conv := readSynthetic(t, 64<<20)
	t.Logf("64 MB: %d kernels, peak %.0f MB reading, %.0f MB with the conversion", kernels, float64(read)/1e6, float64(conv)/1e6)
	if kernels < 100000 || read > 100e6 || conv > 150e6 {
		t.Errorf("%d kernels in %.0f MB (%.0f MB converted); want over 100,000 within 100 MB (150 MB)", kernels, float64(read)/1e6, float64(conv)/1e6)
	}
}

// TestScanStreamedMemory is TestStreamedMemory through the browser's
// tokenizer (ReadScan), with the same bounds.
func TestScanStreamedMemory(t *testing.T) {
	start := time.Now()
	kernels, read, conv := readSyntheticWith(t, 64<<20, kineto.ReadScan)
	t.Logf("64 MB through the tokenizer: %d kernels, peak %.0f MB reading, %.0f MB with the conversion, %.0f MB/s", kernels, float64(read)/1e6, float64(conv)/1e6, 64*1.048576/time.Since(start).Seconds())
	if kernels < 100000 || read > 100e6 || conv > 150e6 {
		t.Errorf("%d kernels in %.0f MB (%.0f MB converted); want over 100,000 within 100 MB (150 MB)", kernels, float64(read)/1e6, float64(conv)/1e6)
	}
}

// BenchmarkScan1GB is BenchmarkRead1GB through the browser's tokenizer:
//
//	go test -run '^$' -bench BenchmarkScan1GB -benchtime 1x ./sim/kineto
func BenchmarkScan1GB(b *testing.B) {
	for b.Loop() {
		start := time.Now()
		kernels, read, conv := readSyntheticWith(b, 1<<30, kineto.ReadScan)
		b.ReportMetric(float64(read)/1e6, "read-peak-MB")
		b.ReportMetric(float64(conv)/1e6, "import-peak-MB")
		b.ReportMetric(float64(kernels), "kernels")
		b.ReportMetric(float64(1<<30)/1e6/time.Since(start).Seconds(), "MB/s")
		if read > 500e6 {
			b.Errorf("peak memory %.0f MB reading 1 GB; the limit is 500 MB", float64(read)/1e6)
		}
	}
}

// BenchmarkRead1GB streams a 1 GB synthetic trace (about 2 million
// kernels, all kept) through Read, which must stay under 500 MB of
// memory, then Timeline, and reports both peaks and the throughput. Run
// it with
//
//	go test -run '^$' -bench BenchmarkRead1GB -benchtime 1x ./sim/kineto
func BenchmarkRead1GB(b *testing.B) {
	for b.Loop() {
		start := time.Now()
		kernels, read, conv := readSynthetic(b, 1<<30)
		b.ReportMetric(float64(read)/1e6, "read-peak-MB")
		b.ReportMetric(float64(conv)/1e6, "import-peak-MB")
		b.ReportMetric(float64(kernels), "kernels")
		b.ReportMetric(float64(1<<30)/1e6/time.Since(start).Seconds(), "MB/s")
		if read > 500e6 {
			b.Errorf("peak memory %.0f MB reading 1 GB; the limit is 500 MB", float64(read)/1e6)
		}
	}
}
