package hw

import (
	"slices"
	"strings"

	"paraplay/sim/units"
)

// Bases for the assumed compute efficiencies. End-to-end MFU from training
// reports includes communication, pipeline bubbles and optimizer steps that
// ParaPlay simulates separately, so the compute-only fraction is at least
// the reported MFU; where no report is at hand the entry says it is a guess.
const (
	effV100      = "ASSUMPTION. Shoeybi et al. 2019 (Megatron-LM): a strong single-V100 baseline sustains 39 TFLOP/s, 30% of peak, end to end."
	effA100      = "ASSUMPTION. Narayanan et al. 2021 (Megatron-LM, SC'21), Table 1: 44–52% of peak per A100 end to end on up to 3,072 GPUs."
	effH100      = "ASSUMPTION. Dubey et al. 2024 (Llama 3), Table 4: 38–43% BF16 MFU end to end on 8,192–16,384 H100s, including communication and bubbles ParaPlay models separately; 0.5 for compute alone."
	effHopperKin = "ASSUMPTION. Same Hopper tensor cores as h100-sxm; the same 0.5 is taken, not measured."
	effB200      = "ASSUMPTION, not measured. No published B200 MFU checked; taken equal to Hopper's 0.5."
	effMI300X    = "ASSUMPTION, not measured. Set lower than NVIDIA's because public reports show MI300X GEMMs reaching a smaller fraction of their larger peak; no figure verified."
	effT4        = "ASSUMPTION, not measured. The 70 W T4 throttles under sustained tensor load; 0.3 is a guess."
	effA10G      = "ASSUMPTION, not measured. A guess for a 24 GB PCIe card on small-model training."
)

// GPUs returns the accelerator catalog sorted by name. Every call builds a
// fresh slice, so the caller may change it freely.
func GPUs() []GPU {
	gpus := []GPU{
		{
			Name: "v100-sxm", Vendor: "NVIDIA", DisplayName: "NVIDIA V100 SXM2 32GB",
			PeakFLOPS: 125e12, Precision: "fp16",
			HBM: 32 * units.GiB, HBMBandwidth: 900 * units.GBps,
			Efficiency: 0.3, EfficiencyBasis: effV100,
			Link: "nvlink2", GPUsPerNode: 8, Server: "NVIDIA DGX-1 (V100), hybrid cube-mesh NVLink",
			Source: "NVIDIA Tesla V100 GPU Datasheet, V100 SXM2 column: Tensor Performance 125 TFLOPS (fp16), 32/16 GB HBM2, 900 GB/s",
		},
		{
			Name: "a100-sxm-40gb", Vendor: "NVIDIA", DisplayName: "NVIDIA A100 SXM4 40GB",
			PeakFLOPS: 312e12, Precision: "bf16",
			HBM: 40 * units.GiB, HBMBandwidth: 1555 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: effA100,
			Link: "nvlink3", GPUsPerNode: 8, Server: "NVIDIA DGX A100 (6 NVSwitches)",
			Source: "NVIDIA A100 Tensor Core GPU Datasheet, A100 40GB SXM column: BF16 Tensor Core 312 TFLOPS (624 with sparsity), 40GB HBM2, 1,555 GB/s",
		},
		{
			Name: "a100-sxm-80gb", Vendor: "NVIDIA", DisplayName: "NVIDIA A100 SXM4 80GB",
			PeakFLOPS: 312e12, Precision: "bf16",
			HBM: 80 * units.GiB, HBMBandwidth: 2039 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: effA100,
			Link: "nvlink3", GPUsPerNode: 8, Server: "NVIDIA DGX A100 640GB (6 NVSwitches)",
			Source: "NVIDIA A100 Tensor Core GPU Datasheet, A100 80GB SXM column: BF16 Tensor Core 312 TFLOPS (624 with sparsity), 80GB HBM2e, 2,039 GB/s",
		},
		{
			Name: "h100-sxm", Vendor: "NVIDIA", DisplayName: "NVIDIA H100 SXM5 80GB",
			PeakFLOPS: 989.4e12, Precision: "bf16",
			HBM: 80 * units.GiB, HBMBandwidth: 3350 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: effH100,
			Link: "nvlink4", GPUsPerNode: 8, Server: "NVIDIA DGX/HGX H100 (4 NVSwitches)",
			Source: "NVIDIA H100 Tensor Core GPU Datasheet, H100 SXM column: BF16 Tensor Core 1,979 TFLOPS with sparsity (989 dense), 80GB HBM3, 3.35 TB/s",
		},
		{
			Name: "h100-pcie", Vendor: "NVIDIA", DisplayName: "NVIDIA H100 PCIe 80GB",
			PeakFLOPS: 756e12, Precision: "bf16",
			HBM: 80 * units.GiB, HBMBandwidth: 2000 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: effHopperKin,
			Link: "pcie5", GPUsPerNode: 8, Server: "8-GPU PCIe Gen5 server (optional NVLink bridges between pairs not modelled)",
			Source: "NVIDIA H100 Tensor Core GPU Datasheet, H100 PCIe column: BF16 Tensor Core 1,513 TFLOPS with sparsity (756 dense), 80GB HBM2e, 2 TB/s",
		},
		{
			Name: "h200", Vendor: "NVIDIA", DisplayName: "NVIDIA H200 SXM 141GB",
			PeakFLOPS: 989.4e12, Precision: "bf16",
			HBM: 141 * units.GiB, HBMBandwidth: 4800 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: effHopperKin,
			Link: "nvlink4", GPUsPerNode: 8, Server: "NVIDIA HGX H200 (4 NVSwitches)",
			Source: "NVIDIA H200 Tensor Core GPU Datasheet, H200 SXM column: BF16 Tensor Core 1,979 TFLOPS with sparsity (989 dense), 141GB HBM3e, 4.8 TB/s",
		},
		{
			Name: "b200", Vendor: "NVIDIA", DisplayName: "NVIDIA B200 (HGX/DGX B200)",
			PeakFLOPS: 2.25e15, Precision: "bf16",
			HBM: 180 * units.GiB, HBMBandwidth: 8000 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: effB200,
			Link: "nvlink5", GPUsPerNode: 8, Server: "NVIDIA DGX/HGX B200 (NVLink 5 switch)",
			Source: "NVIDIA HGX B200 specifications (8 GPUs): FP16/BF16 Tensor Core 36 PFLOPS with sparsity, i.e. 2.25 PFLOPS dense per GPU; NVIDIA DGX B200 Datasheet: 1,440 GB total GPU memory (180 GB per GPU), 64 TB/s HBM3e (8 TB/s per GPU)",
		},
		{
			Name: "mi300x", Vendor: "AMD", DisplayName: "AMD Instinct MI300X",
			PeakFLOPS: 1307.4e12, Precision: "bf16",
			HBM: 192 * units.GiB, HBMBandwidth: 5300 * units.GBps,
			Efficiency: 0.35, EfficiencyBasis: effMI300X,
			Link: "infinity-fabric", GPUsPerNode: 8, Server: "AMD Instinct MI300X Platform (8 OAM GPUs, fully connected Infinity Fabric)",
			Source: "AMD Instinct MI300X Accelerator Data Sheet: peak BF16 1,307.4 TFLOPS dense (2,614.9 with sparsity), 192 GB HBM3, 5.3 TB/s",
		},
		{
			Name: "t4", Vendor: "NVIDIA", DisplayName: "NVIDIA T4 16GB",
			PeakFLOPS: 65e12, Precision: "fp16",
			HBM: 16 * units.GiB, HBMBandwidth: 320 * units.GBps,
			Efficiency: 0.3, EfficiencyBasis: effT4,
			Link: "pcie3", GPUsPerNode: 4, Server: "AWS EC2 g4dn.12xlarge (4× T4, PCIe Gen3)",
			Source: "NVIDIA T4 Tensor Core GPU Datasheet: Mixed Precision (FP16/FP32) 65 TFLOPS, 16 GB GDDR6, 320+ GB/s",
		},
		{
			Name: "a10g", Vendor: "NVIDIA", DisplayName: "NVIDIA A10G 24GB (AWS)",
			PeakFLOPS: 70e12, Precision: "bf16",
			HBM: 24 * units.GiB, HBMBandwidth: 600 * units.GBps,
			Efficiency: 0.4, EfficiencyBasis: effA10G,
			Link: "pcie4", GPUsPerNode: 4, Server: "AWS EC2 g5.12xlarge (4× A10G, PCIe Gen4)",
			Source: "UNVERIFIED: NVIDIA publishes no A10G datasheet (an AWS-only GA102 part). 24 GB GDDR6 at 600 GB/s as AWS lists for EC2 G5; 70 TFLOPS dense bf16 is the GA102 rate with fp32 accumulation (half of the A10 datasheet's 125), not a vendor figure",
		},
		{
			// The bandwidth-rich, compute-poor Hopper that AReaL-Hex (Yan et
			// al. 2025) puts on rollout generation: 4.0 TB/s of HBM, about a
			// sixth of the H100's tensor throughput.
			Name: "h20", Vendor: "NVIDIA", DisplayName: "NVIDIA H20 96GB",
			PeakFLOPS: 148e12, Precision: "bf16",
			HBM: 96 * units.GiB, HBMBandwidth: 4000 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: effHopperKin,
			Link: "nvlink4", GPUsPerNode: 8, Server: "NVIDIA HGX H20 (8 GPUs, NVLink 4)",
			Source: "UNVERIFIED: NVIDIA publishes no H20 datasheet (a China-market Hopper). 148 TFLOPS dense FP16/BF16, 96 GB HBM3 at 4.0 TB/s and NVLink 900 GB/s as third-party spec listings report them (e.g. willitrunai.com/gpus/h20-96gb), not a vendor figure",
		},
	}
	slices.SortFunc(gpus, func(a, b GPU) int { return strings.Compare(a.Name, b.Name) })
	return gpus
}
