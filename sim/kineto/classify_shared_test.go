//go:build !js

package kineto_test

import (
	"strings"
	"testing"

	"paraplay/sim/kineto"
	"paraplay/sim/kineto/kinetotest"
)

// TestClassifySharedKernels holds the class of real kernel names, each
// the start of a name found in the shared traces (the test fails if one
// is not there, so the table stays real). The shared traces hold no
// attention kernel; TestClassify covers those names.
func TestClassifySharedKernels(t *testing.T) {
	table := []struct{ prefix, want string }{
		// cuBLAS and CUTLASS GEMMs and GEMVs, cuDNN's implicit-GEMM convolutions.
		{"ampere_sgemm_128x128_tn", "gemm"},
		{"void sgemm_largek_lds64<", "gemm"},
		{"void gemvNSP_kernel<float", "gemm"},
		{"std::enable_if<!(false), void>::type internal::gemvx::kernel<", "gemm"},
		{"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>", "gemm"},
		{"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32", "gemm"},
		{"sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32", "gemm"},
		{"void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688dgrad_optimized_tf32", "gemm"},
		{"_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolution", "gemm"},
		{"cudnn_infer_ampere_scudnn_128x64_relu_xregs_large_nn_v1", "gemm"},
		{"void cublasLt::splitKreduce_kernel<", "gemm"}, // the second half of a split-K GEMM
		// ATen's elementwise, reductions, norms, softmax, the fused optimizer; cuDNN's batch norm and layout changes.
		{"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>", "elementwise"},
		{"void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda", "elementwise"},
		{"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::tanh_backward_kernel_cuda", "elementwise"},
		{"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps", "elementwise"},
		{"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>", "elementwise"},
		{"void at::native::(anonymous namespace)::layer_norm_grad_input_kernel<float, float>", "elementwise"},
		{"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel<float, float>", "elementwise"},
		{"void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<float, float>", "elementwise"},
		{"void (anonymous namespace)::softmax_warp_forward<float, float, float, 1, false, false>", "elementwise"},
		{"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<", "elementwise"},
		{"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float", "elementwise"},
		{"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float", "elementwise"},
		{"void cudnn::ops::nchwToNhwcKernel<float", "elementwise"},
		// Embedding lookups (FBGEMM), scans, pooling: other kernels.
		{"void split_embedding_codegen_forward_unweighted_kernel<", "other"},
		{"void fbgemm_gpu::permute_2D_lengths_kernel<int>", "other"},
		{"void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>", "other"},
		// NCCL's kernels: communication.
		{"ncclKernel_AllReduce_RING_LL_Sum_float(", "collective"},
		{"ncclKernel_Broadcast_RING_LL_Sum_int8_t(", "collective"},
		{"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(", "collective"},
		// Copies and sets.
		{"Memcpy DtoD (Device -> Device)", "memcpy"},
		{"Memcpy HtoD (Pinned -> Device)", "memcpy"},
		{"Memset (Device)", "memset"},
	}
	var traces []*kineto.Trace
	for _, name := range []string{"kineto-a100-128rank-rank0.json.gz", "kineto-nccl-2rank-rank0.json.gz"} {
		traces = append(traces, kinetotest.Read(t, name))
	}
	for _, c := range table {
		found := 0
		for _, tr := range traces {
			for i := range tr.Kernels {
				k := &tr.Kernels[i]
				if !strings.HasPrefix(tr.KernelName(k), c.prefix) {
					continue
				}
				found++
				if got := k.Class.String(); got != c.want {
					t.Errorf("%s: %s, want %s", tr.KernelName(k), got, c.want)
					break
				}
			}
		}
		if found == 0 {
			t.Errorf("no kernel of the shared traces starts with %q", c.prefix)
		}
	}
}
