//go:build !js

package gemm

// Where the ceilings come from. MAMF is the "Maximum Achievable Matmul
// FLOPS comparison table" of Stas Bekman's ml-engineering book
// (stas00/ml-engineering, compute/accelerator/README.md): the best mean
// rate mamf-finder.py found over a brute-force search of shapes, with
// PyTorch, per accelerator. Its figures are quoted in each entry.
const (
	mamfSource = "Ceilings: ml-engineering (stas00/ml-engineering, compute/accelerator/README.md), Maximum Achievable Matmul FLOPS table"

	fitH100 = "Fitted (go test ./sim/gemm -run TestFit -fit h100-sxm -v) to the 375 bf16 and 375 tf32 shapes of the openxla/xla sm_90 table (published/xla_matmul.txt); the fp8 column is not fitted (TestH100FP8ColumnExceedsPeak), so Balance[fp8] is bf16's, UNCONFIRMED."
	fitB200 = "Fitted (go test ./sim/gemm -run TestFit -fit b200 -v) to the 375 bf16, tf32 and fp8 shapes of the openxla/xla sm_100 table (published/xla_matmul.txt)."
	fitMI   = "Fitted (go test ./sim/gemm -run TestFit -fit mi300x -fitceil tf32,fp8 -v) to the 375 bf16, tf32 and fp8 shapes of the ROCm/xla gfx942 table (published/xla_matmul.txt), whose own repeats disagree by a p90 of 31% in bf16 (TestTableSelfConsistency)."

	// Borrowed: GPUs without a measured table take the fitted shape
	// parameters of the measured GPU of their family.
	borrowHopper = "UNCONFIRMED by any table: Balance, TileOverhead, Launch and HBMEfficiency are the h100-sxm fit's (same Hopper SM)."
	borrowOlder  = "UNCONFIRMED by any table: Balance, TileOverhead, Launch and HBMEfficiency are the h100-sxm fit's, borrowed across architectures (no table for this GPU was found)."
	fitA100      = "TileOverhead fitted (go test ./sim/gemm -run 'TestFit$' -fit a100-sxm-80gb -fitceil= -fitfixed launch,hbm -v, which also moves Balance to 87.8) to the 9 fp16 shapes of published/cookbook_a100.txt (EleutherAI's sizing benchmarks, on a GPU the files do not name, taken as an A100: UNCONFIRMED), median |error| 3.3%, p90 5.4%; Balance held at 85.3, the operand reuse of the largest tile (256×128), so that the MAMF ceiling stays reachable as MAMF measured it; Launch and HBMEfficiency, which those large shapes cannot fix, are the h100-sxm fit's, UNCONFIRMED."
	tpuBasis     = "ASSUMPTION throughout, no measured TPU GEMM table: ceiling 0.85 of peak (google/maxtext's published v5e-256 runs reach 56–67% MFU end to end, MaxText/configs/v5e README, which bounds it from below; the one public TPU matmul timing found, XLA's jnp.matmul on one v5e in JAX's Pallas TPU 'Matrix Multiplication' guide, reaches 84.3% of peak at 4096³ bf16 and 92.3% at 8192³, so on v5e the ceiling reads 0–8% low, TestTPUCeilingAgainstJAX; v4, v5p, v6e and TPU7x have no measurement); MXU the systolic array's side every matmul dimension pads to (Austin et al. 2025, 'How to Scale Your Model', Part 2: 128, 256 on TPU v6; TPU7x's UNCONFIRMED, so none applied); Balance the operand reuse of an output tile that fills one MXU (64 for 128x128, 85.3 the largest tile's on v6e's 256x256); TileOverhead 0; Launch 2 µs; HBMEfficiency 0.85. None fitted."
	borrowAmpere = "UNCONFIRMED by any table: Balance, TileOverhead, Launch and HBMEfficiency are the a100-sxm-80gb fit's (same Ampere SM). "
)

// sources are the catalog's citations by GPU: its Source and its Basis.
// Only the command line and the tests print or check them, so the
// browser's build leaves them out (sources_js.go).
var sources = map[string][2]string{
	"a100-sxm-40gb": {"NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs. A100 datasheet: TF32 156, BF16/FP16 312 TFLOPS dense; no FP8",
		mamfSource + ": A100 SXM bf16 271.2 of 312 TFLOP/s (measured on the 80GB part; fp16 and tf32 taken at the same fraction, UNCONFIRMED). " + borrowAmpere + fitA100},
	"a100-sxm-80gb": {"NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs. A100 datasheet: TF32 156, BF16/FP16 312 TFLOPS dense; no FP8",
		mamfSource + ": A100 SXM bf16 271.2 of 312 TFLOP/s (fp16 and tf32 taken at the same fraction, UNCONFIRMED). " + fitA100},
	"a10g": {"UNVERIFIED: 80 SMs as third-party listings give for the AWS-only A10G (no NVIDIA datasheet); TF32 at half the bf16 rate as on every Ampere part, not a vendor figure",
		"ASSUMPTION: ceilings 0.8 of peak, a guess (no MAMF measurement). " + borrowAmpere + fitA100},
	"b200": {"UNVERIFIED SM count: 148 SMs as CUDA's device query reports for B200 (no NVIDIA datasheet prints it). NVIDIA HGX B200 specifications (8 GPUs, sparse): TF32 18, FP16/BF16 36, FP8 72 PFLOPS, i.e. 1.125, 2.25 and 4.5 PFLOPS dense per GPU",
		mamfSource + ": B200 SXM bf16 1745.0 of 2250, fp8 3432.5 of 4500 TFLOP/s; tf32's ceiling fitted. " + fitB200},
	"gb200": {"UNVERIFIED SM count: the B200's 148 (the GB200's Blackwell GPU is the same die, clocked higher; no NVIDIA datasheet prints the count). NVIDIA GB200 NVL72 specifications (72 GPUs, sparse): FP16/BF16 360, FP8 720 PFLOPS, i.e. 2.5 and 5 PFLOPS dense per GPU",
		"UNCONFIRMED by any table: every parameter is the b200 fit's, ceilings as fractions of the GB200's own peaks. " + fitB200},
	"h100-pcie": {"NVIDIA H100 Tensor Core GPU Architecture whitepaper: 114 SMs on H100 PCIe. H100 datasheet, PCIe column, dense: TF32 378, BF16/FP16 756, FP8 1,513 TFLOPS",
		"UNCONFIRMED: the h100-sxm ceilings (fractions of peak) taken for the PCIe part. " + borrowHopper},
	"h100-sxm": {"NVIDIA H100 Tensor Core GPU Architecture whitepaper: 132 SMs on H100 SXM5. H100 datasheet, SXM column, dense (half the sparsity figures): TF32 494.7, BF16/FP16 989.4, FP8 1,979 TFLOPS",
		mamfSource + ": H100 SXM bf16 794.5 of 989, fp8 1402.6 of 1979 TFLOP/s; tf32's ceiling fitted. " + fitH100},
	"h20": {"UNVERIFIED: 78 SMs as third-party listings report for the China-market H20 (no NVIDIA datasheet); TF32 and FP8 at half and twice the bf16 rate as on every Hopper part",
		"UNCONFIRMED: the h100-sxm ceilings (fractions of peak) taken for the H20. " + borrowHopper},
	"h200": {"NVIDIA H200 datasheet: the H100 SXM's GH100 with 132 SMs; dense TF32 494.7, BF16/FP16 989.4, FP8 1,979 TFLOPS",
		mamfSource + ": H200 SXM fp8 1453.4 of 1979 TFLOP/s; bf16 noted there as the same as H100 SXM's 794.5; tf32 the h100-sxm fit's, UNCONFIRMED. " + borrowHopper},
	"h800": {"UNVERIFIED: the H800 SXM is the H100 SXM's GH100 (132 SMs) with NVLink cut to 400 GB/s, as third-party listings say (NVIDIA publishes no H800 datasheet); dense BF16 989.4, FP8 1,979 TFLOPS as the H100's",
		"UNCONFIRMED: the h100-sxm ceilings (fractions of peak) taken for the H800. " + borrowHopper},
	"mi300x": {"AMD Instinct MI300X data sheet: 304 compute units; dense TF32 653.7, BF16/FP16 1,307.4, FP8 2,614.9 TFLOPS",
		mamfSource + ": MI300X bf16 668.4 TFLOP/s (with PyTorch TunableOp); tf32's ceiling fitted; fp8's 0.70 an ASSUMPTION the fit did not move (the MAMF table has no MI300X fp8 figure). " + fitMI},
	"mi325x": {"AMD Instinct MI325X: the MI300X's 304 CDNA 3 compute units with 256 GB of HBM3E; dense BF16 1,307.4, FP8 2,614.9 TFLOPS as the MI300X's",
		"UNCONFIRMED by any table: every parameter is the mi300x fit's. " + fitMI},
	"t4": {"NVIDIA Turing architecture whitepaper: T4 has 40 SMs (2,560 CUDA cores). T4 datasheet: 65 TFLOPS mixed-precision FP16; no bf16, tf32 or fp8 tensor cores",
		"ASSUMPTION: ceiling 0.6 of peak, a guess for a 70 W card that throttles under sustained tensor load (no MAMF measurement). " + borrowOlder},
	"tpu-v4":  {"Cloud TPU docs, 'TPU v4': 2 TensorCores per chip, 4 MXUs each (8 taken as its 'SMs'); 275 TFLOPS bf16 (int8 the same). fp16 UNCONFIRMED: priced at the bf16 rate (the MXU takes bf16)", tpuBasis},
	"tpu-v5e": {"Cloud TPU docs, 'TPU v5e': 1 TensorCore per chip, 4 MXUs (taken as its 'SMs'); 197 TFLOPS bf16. fp16 UNCONFIRMED: priced at the bf16 rate", tpuBasis},
	"tpu-v5p": {"Cloud TPU docs, 'TPU v5p': 2 TensorCores per chip, 4 MXUs each (8 taken as its 'SMs'); 459 TFLOPs bf16, FP8 listed at the same rate (none modelled). fp16 UNCONFIRMED: priced at the bf16 rate", tpuBasis},
	"tpu-v6e": {"Cloud TPU docs, 'TPU v6e': 1 TensorCore per chip with two 256x256 MXUs (2 taken as its 'SMs'); 918 TFLOPs bf16. fp16 UNCONFIRMED: priced at the bf16 rate", tpuBasis},
	"tpu7x":   {"Cloud TPU docs, 'TPU7x (Ironwood)': 2 TensorCores per chip; 2,307 TFLOPs bf16 and 4,614 FP8. The MXU count is UNCONFIRMED (v5p's 8 taken). fp16 UNCONFIRMED: priced at the bf16 rate", tpuBasis},
	"v100-sxm": {"NVIDIA Tesla V100 GPU Architecture whitepaper: 80 SMs. V100 datasheet: 125 TFLOPS FP16 tensor; no bf16, tf32 or fp8 tensor cores",
		"ASSUMPTION: ceiling 0.8 of peak, a guess (no MAMF measurement). " + borrowOlder},
}
