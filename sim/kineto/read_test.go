//go:build !js

package kineto_test

import (
	"bytes"
	"strings"
	"testing"

	"paraplay/sim/kineto"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// TestReadErrors holds each malformed, truncated or oversized input to an
// error that says what is wrong and where (its byte offset).
func TestReadErrors(t *testing.T) {
	small := kineto.Limits{MaxBytes: 4096, MaxValue: 1024, MaxEvents: 2}
	kernel := `{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2}`
	for _, c := range []struct {
		name, in string
		lim      kineto.Limits
		want     string
	}{
		{"empty", ``, kineto.Limits{}, "byte 0: the file ends"},
		{"not an object", `[1, 2]`, kineto.Limits{}, "byte 0: found [: the file must be a JSON object"},
		{"no events", `{"schemaVersion": 1}`, kineto.Limits{}, "no traceEvents list"},
		{"events not a list", `{"traceEvents": 3}`, kineto.Limits{}, "byte 14: found 3: traceEvents must be a list"},
		{"truncated", `{"traceEvents": [` + kernel + `, {"ph": "X", "ts"`, kineto.Limits{}, "the file ends in the middle"},
		{"syntax", `{"traceEvents": [` + kernel + `, {"ph" "X"}]}`, kineto.Limits{}, "byte 101: malformed JSON"},
		{"bad ts", `{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": "soon", "dur": 1}]}`, kineto.Limits{}, `byte 17: event 0: json: invalid number literal`},
		{"ts type", `{"traceEvents": [{"ph": "X", "ts": [1]}]}`, kineto.Limits{}, `byte 17: event 0: field "ts" is a JSON array`},
		{"negative dur", `{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": -1}]}`, kineto.Limits{}, `dur "-1": not a duration`},
		{"huge ts", `{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1e300, "dur": 1}]}`, kineto.Limits{}, `ts "1e300"`},
		{"bad stream", `{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 1, "args": {"stream": 1.5}}]}`, kineto.Limits{}, `args.stream "1.5": not a whole number`},
		{"bad rank", `{"distributedInfo": {"rank": 5, "world_size": 2}, "traceEvents": []}`, kineto.Limits{}, "byte 18: distributedInfo: rank 5 of world_size 2"},
		{"trailing data", `{"traceEvents": []} {}`, kineto.Limits{}, "data after the end"},
		{"too many events", `{"traceEvents": [` + kernel + `,` + kernel + `,` + kernel + `]}`, small, "more than 2 events"},
		{"value too large", `{"traceEvents": [{"ph": "X", "name": "` + strings.Repeat("x", 3000) + `"}]}`, small, "one JSON value is larger than the 1024 bytes"},
		{"file too large", `{"traceEvents": [` + strings.Repeat(`{"ph": "i"},`, 400) + `{}]}`, small, "larger than the 4096 bytes"},
		{"bad limits", `{}`, kineto.Limits{MaxBytes: 10}, "limits.max_bytes is 10"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := kineto.Read(strings.NewReader(c.in), "t.json", c.lim)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// TestReadEvents reads a small trace in the shape Kineto writes: the
// kernel classes, an NCCL kernel's collective from its args, exact
// nanoseconds from fractional microseconds, steps, and the links from
// kernels to their launches and GEMM operators.
func TestReadEvents(t *testing.T) {
	in := `{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "totalGlobalMem": 42297524224, "numSms": 108}],
	"distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 2},
	"traceEvents": [
	{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 10, "tid": 10, "ts": 1000.5, "dur": 100},
	{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 10, "ts": 1001, "dur": 5, "args": {"External id": 9, "Input Dims": [[64, 128], [128, 256]], "Input type": ["c10::BFloat16", "c10::BFloat16"]}},
	{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1002, "dur": 2, "args": {"correlation": 77}},
	{"ph": "X", "cat": "kernel", "name": "sm80_xmma_gemm_bf16bf16_bf16f32", "pid": 0, "tid": 7, "ts": 1010.0004, "dur": 3.0006, "args": {"correlation": 77, "device": 0, "stream": 7}},
	{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "pid": 0, "tid": 20, "ts": 1012, "dur": 50,
	 "args": {"device": 0, "stream": 20, "Collective name": "allreduce", "In msg nelems": 1000, "Out msg nelems": 1000, "Group size": 2, "dtype": "Float", "Process Group Name": "0"}},
	{"ph": "X", "cat": "kernel", "name": "flash_fwd_kernel", "pid": 0, "tid": 7, "ts": 1020, "dur": 4},
	{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 9, "ts": 1030, "dur": 1, "args": {"bytes": 4096}},
	{"ph": "f", "id": 1, "pid": 10, "tid": 10, "ts": 1}
	], "baseTimeNanoseconds": 1}`
	tr, err := kineto.Read(strings.NewReader(in), "t.json", kineto.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Rank != 1 || tr.WorldSize != 2 || tr.HostGPUs != 1 || len(tr.Kernels) != 4 || len(tr.Steps) != 1 || tr.Ignored != 1 {
		t.Fatalf("rank %d/%d, %d host GPUs, %d kernels, %d steps, %d ignored; want 1/2, 1, 4, 1, 1", tr.Rank, tr.WorldSize, tr.HostGPUs, len(tr.Kernels), len(tr.Steps), tr.Ignored)
	}
	var classes []string
	for _, k := range tr.Kernels {
		classes = append(classes, k.Class.String())
	}
	if got, want := strings.Join(classes, " "), "gemm collective attention memcpy"; got != want {
		t.Errorf("classes %q, want %q", got, want)
	}
	g := tr.Kernels[0]
	if g.Start != 1010000 || g.End != 1013001 { // 1010.0004 µs rounds to 1010000 ns; 3.0006 µs to 3001 ns
		t.Errorf("gemm at %d..%d ns, want 1010000..1013001", g.Start, g.End)
	}
	if op, ok := tr.GEMMOf(&g); !ok || op.M != 64 || op.K != 128 || op.N != 256 || op.DType != "c10::BFloat16" {
		t.Errorf("gemm's operator %+v (found %v), want 64×128 · 128×256 bf16", op, ok)
	}
	n := *tr.NCCLOf(&tr.Kernels[1])
	if n.Op != "all_reduce" || n.Algorithm != "ring" || n.Protocol != "ll" || n.Bytes != 4000 || n.GroupSize != 2 {
		t.Errorf("nccl %+v, want all_reduce ring ll 4000 B in a group of 2", n)
	}
	if s := tr.Steps[0]; s.Number != 4 || s.Start != 1000500 || s.End != 1100500 {
		t.Errorf("step %+v", s)
	}
}

// TestOverlappingStreams holds the timeline's one stream per GPU to the
// union of its streams' work: a kernel on a second stream that overlaps
// starts where the first ended, one hidden entirely is left out.
func TestOverlappingStreams(t *testing.T) {
	in := `{"traceEvents": [
	{"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 7, "ts": 0, "dur": 10},
	{"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 8, "ts": 5, "dur": 10},
	{"ph": "X", "cat": "kernel", "name": "c", "pid": 0, "tid": 9, "ts": 6, "dur": 2},
	{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllGather_RING_SIMPLE", "pid": 0, "tid": 20, "ts": 2, "dur": 30}]}`
	tr, err := kineto.Read(strings.NewReader(in), "t.json", kineto.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := kineto.Timeline([]*kineto.Trace{tr})
	if err != nil {
		t.Fatal(err)
	}
	us := units.Microsecond
	want := []timeline.Span{
		{Kind: timeline.Kernel, Label: "a", Start: 0, End: 10 * us},
		{Kind: timeline.Kernel, Label: "b", Start: 10 * us, End: 15 * us},
	}
	if len(tl.Spans) != len(want) || tl.Spans[0] != want[0] || tl.Spans[1] != want[1] {
		t.Errorf("spans %+v, want %+v", tl.Spans, want)
	}
	if c := tl.Collectives[0]; c.Name != "all_gather" || c.Start != 2*us || c.End != 32*us || tl.End != 32*us {
		t.Errorf("collective %+v, end %v", c, tl.End)
	}
	reps, _ := kineto.Analyze([]*kineto.Trace{tr})
	if r := reps[0]; r.Compute != 15*us || r.Communication != 30*us || r.Exposed != 17*us || r.Overlap != 13*us || r.Idle != 0 {
		t.Errorf("compute %v, communication %v (exposed %v, overlap %v), idle %v; want 15µs, 30µs (17µs, 13µs), 0", r.Compute, r.Communication, r.Exposed, r.Overlap, r.Idle)
	}
	var b bytes.Buffer
	if err := tl.WriteChromeTrace(&b); err != nil || !strings.Contains(b.String(), `"name": "all-gather"`) {
		t.Errorf("the Chrome trace of a measured run lacks its collective (err %v)", err)
	}
}

// TestClassify holds the classes of kernel names the libraries give.
func TestClassify(t *testing.T) {
	for _, c := range []struct{ cat, name, want string }{
		{"kernel", "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>(…)", "gemm"},
		{"kernel", "ampere_sgemm_32x128_tn", "gemm"},
		{"kernel", "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32", "gemm"},
		{"kernel", "nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NTT", "gemm"},
		{"kernel", "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>", "attention"},
		{"kernel", "fmha_cutlassF_f16_aligned_64x64_rf_sm80", "attention"},
		{"kernel", "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float>>", "elementwise"},
		{"kernel", "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>", "elementwise"},
		{"kernel", "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float>", "elementwise"},
		{"kernel", "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", "collective"},
		{"kernel", "void cub::DeviceScanKernel<int>", "other"},
		{"kernel", "void fbgemm_gpu::permute_2D_data_kernel<false, int, int>", "other"},
		{"kernel", "split_embedding_codegen_forward_unweighted_kernel<c10::Half>", "other"},
		{"gpu_memcpy", "Memcpy DtoD (Device -> Device)", "memcpy"},
		{"gpu_memset", "Memset (Device)", "memset"},
	} {
		in := `{"traceEvents": [{"ph": "X", "cat": "` + c.cat + `", "name": "` + c.name + `", "pid": 0, "tid": 7, "ts": 0, "dur": 1}]}`
		tr, err := kineto.Read(strings.NewReader(in), "t.json", kineto.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.Kernels[0].Class.String(); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
