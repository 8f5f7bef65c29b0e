package hw

import (
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
	effH800      = "ASSUMPTION. The H100's compute (same GH100 tensor cores and clocks); the same 0.5 is taken, not measured."
	effGB200     = "ASSUMPTION, not measured. Same Blackwell tensor cores as b200; taken equal to its 0.5."
	effMI300X    = "ASSUMPTION, not measured. Set lower than NVIDIA's because public reports show MI300X GEMMs reaching a smaller fraction of their larger peak; no figure verified."
	effT4        = "ASSUMPTION, not measured. The 70 W T4 throttles under sustained tensor load; 0.3 is a guess."
	effMI325X    = "ASSUMPTION, not measured. MI300X's compute dies; taken equal to its 0.35."
	effA10G      = "ASSUMPTION, not measured. A guess for a 24 GB PCIe card on small-model training."
)

// fp8SeenHopper says how the H100 datasheet's FP8 rows were confirmed.
const fp8SeenHopper = "FP8 rows confirmed in secondary copies of the datasheet only (hpctech.co.jp's transcript: FP8 3,958*/3,026* TFLOPS, '* with sparsity'; glennklockwood.com's H100 table: FP8 matrix 1,978.9, sparse 3,957.8); the datasheet itself was not in the search corpus"

// GPUs returns the accelerator catalog sorted by name. Every call builds a
// fresh slice, so the caller may change it freely.
func GPUs() []GPU {
	gpus := []GPU{
		{
			Name: "v100-sxm", Vendor: "NVIDIA", DisplayName: "NVIDIA V100 SXM2 32GB",
			PeakFLOPS: 125e12, Precision: "fp16",
			HBM: 32 * units.GiB, HBMBandwidth: 900 * units.GBps,
			Efficiency: 0.3, EfficiencyBasis: cite(effV100),
			Link: "nvlink2", GPUsPerNode: 8, Server: "NVIDIA DGX-1 (V100), hybrid cube-mesh NVLink",
			Source: cite("NVIDIA Tesla V100 GPU Datasheet, V100 SXM2 column: Tensor Performance 125 TFLOPS (fp16), 32/16 GB HBM2, 900 GB/s"),
			TDP:    300, IdlePower: 50, Price: 0.60, PriceBasis: cite(priceBasis),
			PowerSource: cite("NVIDIA Tesla V100 GPU Datasheet, V100 SXM2: max power consumption 300 W. " +
				idleBasis + "50 W, about a sixth of TDP, not measured"),
		},
		{
			Name: "a100-sxm-40gb", Vendor: "NVIDIA", DisplayName: "NVIDIA A100 SXM4 40GB",
			PeakFLOPS: 312e12, Precision: "bf16",
			HBM: 40 * units.GiB, HBMBandwidth: 1555 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: cite(effA100),
			Link: "nvlink3", GPUsPerNode: 8, Server: "NVIDIA DGX A100 (6 NVSwitches)",
			Source: cite("NVIDIA A100 Tensor Core GPU Datasheet, A100 40GB SXM column: BF16 Tensor Core 312 TFLOPS (624 with sparsity), 40GB HBM2, 1,555 GB/s"),
			TDP:    400, IdlePower: 60, Price: 1.20, PriceBasis: cite(priceBasis),
			PowerSource: cite("NVIDIA A100 Tensor Core GPU Datasheet, A100 SXM: max TDP power 400 W. " +
				idleBasis + "60 W, 15% of TDP, not measured"),
		},
		{
			Name: "a100-sxm-80gb", Vendor: "NVIDIA", DisplayName: "NVIDIA A100 SXM4 80GB",
			PeakFLOPS: 312e12, Precision: "bf16",
			HBM: 80 * units.GiB, HBMBandwidth: 2039 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: cite(effA100),
			Link: "nvlink3", GPUsPerNode: 8, Server: "NVIDIA DGX A100 640GB (6 NVSwitches)",
			Source: cite("NVIDIA A100 Tensor Core GPU Datasheet, A100 80GB SXM column: BF16 Tensor Core 312 TFLOPS (624 with sparsity), 80GB HBM2e, 2,039 GB/s"),
			TDP:    400, IdlePower: 60, Price: 1.50, PriceBasis: cite(priceBasis),
			PowerSource: cite("NVIDIA A100 Tensor Core GPU Datasheet, A100 80GB SXM: max TDP power 400 W. " +
				idleBasis + "60 W, 15% of TDP, not measured"),
		},
		{
			Name: "h100-sxm", Vendor: "NVIDIA", DisplayName: "NVIDIA H100 SXM5 80GB",
			PeakFLOPS: 989.4e12, Precision: "bf16", PeakFP8: 1978.9e12,
			HBM: 80 * units.GiB, HBMBandwidth: 3350 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: cite(effH100),
			Link: "nvlink4", GPUsPerNode: 8, Server: "NVIDIA DGX/HGX H100 (4 NVSwitches)",
			Source: cite("NVIDIA H100 Tensor Core GPU Datasheet, H100 SXM column: BF16 Tensor Core 1,979 TFLOPS with sparsity (989 dense), FP8 Tensor Core 3,958 TFLOPS with sparsity (1,979 dense; 1,978.9 in the H100 white paper's dense table), 80GB HBM3, 3.35 TB/s. " + fp8SeenHopper),
			TDP:    700, IdlePower: 100, Price: 2.50, PriceBasis: cite(priceBasis),
			PowerSource: cite("NVIDIA H100 Tensor Core GPU Datasheet, H100 SXM: max thermal design power up to 700 W. " + h100Idle),
		},
		{
			Name: "h100-pcie", Vendor: "NVIDIA", DisplayName: "NVIDIA H100 PCIe 80GB",
			PeakFLOPS: 756e12, Precision: "bf16", PeakFP8: 1513e12,
			HBM: 80 * units.GiB, HBMBandwidth: 2000 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: cite(effHopperKin),
			Link: "pcie5", GPUsPerNode: 8, Server: "8-GPU PCIe Gen5 server (optional NVLink bridges between pairs not modelled)",
			Source: cite("NVIDIA H100 Tensor Core GPU Datasheet, H100 PCIe column: BF16 Tensor Core 1,513 TFLOPS with sparsity (756 dense), FP8 Tensor Core 3,026 TFLOPS with sparsity (1,513 dense), 80GB HBM2e, 2 TB/s. " + fp8SeenHopper),
			TDP:    350, IdlePower: 60, Price: 2.00, PriceBasis: cite(priceBasis),
			PowerSource: cite("NVIDIA H100 Tensor Core GPU Datasheet, H100 PCIe: max thermal design power 300–350 W (configurable); the upper figure. " +
				idleBasis + "60 W, about a sixth of TDP"),
		},
		{
			Name: "h200", Vendor: "NVIDIA", DisplayName: "NVIDIA H200 SXM 141GB",
			PeakFLOPS: 989.4e12, Precision: "bf16", PeakFP8: 1978.9e12,
			HBM: 141 * units.GiB, HBMBandwidth: 4800 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: cite(effHopperKin),
			Link: "nvlink4", GPUsPerNode: 8, Server: "NVIDIA HGX H200 (4 NVSwitches)",
			Source: cite("NVIDIA H200 Tensor Core GPU Datasheet, H200 SXM column: BF16 Tensor Core 1,979 TFLOPS with sparsity (989 dense), FP8 Tensor Core 3,958 TFLOPS with sparsity (1,979 dense), 141GB HBM3e, 4.8 TB/s. FP8 figure seen in secondary copies only (e.g. ai-hpc.github.io's 8x H200 page: FP8 ~3,958 TFLOPS per GPU); the datasheet itself was not in the search corpus"),
			TDP:    700, IdlePower: 100, Price: 3.00, PriceBasis: cite(priceBasis),
			PowerSource: cite("NVIDIA H200 Tensor Core GPU Datasheet, H200 SXM: max thermal design power up to 700 W. " + h100Idle +
				" (a public vLLM benchmark, serialalice.pt, reports an H200 at 80 W idle)"),
		},
		{
			Name: "b200", Vendor: "NVIDIA", DisplayName: "NVIDIA B200 (HGX/DGX B200)",
			PeakFLOPS: 2.25e15, Precision: "bf16", PeakFP8: 4.5e15,
			HBM: 180 * units.GiB, HBMBandwidth: 8000 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: cite(effB200),
			Link: "nvlink5", GPUsPerNode: 8, Server: "NVIDIA DGX/HGX B200 (NVLink 5 switch)",
			Source: cite("NVIDIA HGX B200 specifications (8 GPUs): FP16/BF16 Tensor Core 36 PFLOPS with sparsity, i.e. 2.25 PFLOPS dense per GPU; FP8 Tensor Core 72 PFLOPS with sparsity, i.e. 4.5 PFLOPS dense per GPU; NVIDIA DGX B200 Datasheet: 1,440 GB total GPU memory (180 GB per GPU), 64 TB/s HBM3e (8 TB/s per GPU), '72 petaFLOPS training' (FP8 with sparsity, 8 GPUs). FP8 figures confirmed in secondary copies only (a transcript of the DGX B200 specifications in eawlot3000/reading; verda.com's per-GPU table: B200 FP8 4.5 PFLOPS dense)"),
			TDP:    1000, IdlePower: 150, Price: 4.50, PriceBasis: cite(priceBasis),
			PowerSource: cite("NVIDIA HGX B200: up to 1,000 W per GPU, confirmed in secondary sources only. " +
				idleBasis + "150 W, 15% of TDP as for the H100"),
		},
		{
			Name: "mi300x", Vendor: "AMD", DisplayName: "AMD Instinct MI300X",
			PeakFLOPS: 1307.4e12, Precision: "bf16", PeakFP8: 2614.9e12,
			HBM: 192 * units.GiB, HBMBandwidth: 5300 * units.GBps,
			Efficiency: 0.35, EfficiencyBasis: cite(effMI300X),
			Link: "infinity-fabric", GPUsPerNode: 8, Server: "AMD Instinct MI300X Platform (8 OAM GPUs, fully connected Infinity Fabric)",
			Source: cite("AMD Instinct MI300X Accelerator Data Sheet: peak BF16 1,307.4 TFLOPS dense (2,614.9 with sparsity), peak FP8 2,614.9 TFLOPS dense (5,229.8 with sparsity), 192 GB HBM3, 5.3 TB/s. FP8 figure seen in secondary sources only (e.g. ScalarLM's MI300X GEMM note: FP8 2.6 PFLOP/s); the data sheet was not in the search corpus"),
			TDP:    750, IdlePower: 150, Price: 2.50, PriceBasis: cite(priceBasis),
			PowerSource: cite("AMD Instinct MI300X: 750 W peak total board power (OAM), from AMD's launch footnotes as reported by secondary sources (meterpreter.org, inkl.com); the data sheet itself was not in the search corpus. " +
				idleBasis + "150 W, 20% of TBP, not measured"),
		},
		{
			Name: "t4", Vendor: "NVIDIA", DisplayName: "NVIDIA T4 16GB",
			PeakFLOPS: 65e12, Precision: "fp16",
			HBM: 16 * units.GiB, HBMBandwidth: 320 * units.GBps,
			Efficiency: 0.3, EfficiencyBasis: cite(effT4),
			Link: "pcie3", GPUsPerNode: 4, Server: "AWS EC2 g4dn.12xlarge (4× T4, PCIe Gen3)",
			Source: cite("NVIDIA T4 Tensor Core GPU Datasheet: Mixed Precision (FP16/FP32) 65 TFLOPS, 16 GB GDDR6, 320+ GB/s"),
			TDP:    70, IdlePower: 15, Price: 0.35, PriceBasis: cite(priceBasis),
			PowerSource: cite("NVIDIA T4 Tensor Core GPU Datasheet: max power consumption 70 W. " +
				idleBasis + "15 W, not measured"),
		},
		{
			Name: "a10g", Vendor: "NVIDIA", DisplayName: "NVIDIA A10G 24GB (AWS)",
			PeakFLOPS: 70e12, Precision: "bf16",
			HBM: 24 * units.GiB, HBMBandwidth: 600 * units.GBps,
			Efficiency: 0.4, EfficiencyBasis: cite(effA10G),
			Link: "pcie4", GPUsPerNode: 4, Server: "AWS EC2 g5.12xlarge (4× A10G, PCIe Gen4)",
			Source: cite("UNVERIFIED: NVIDIA publishes no A10G datasheet (an AWS-only GA102 part). 24 GB GDDR6 at 600 GB/s as AWS lists for EC2 G5; 70 TFLOPS dense bf16 is the GA102 rate with fp32 accumulation (half of the A10 datasheet's 125), not a vendor figure"),
			TDP:    150, IdlePower: 25, Price: 0.75, PriceBasis: cite(priceBasis),
			PowerSource: cite("UNCONFIRMED: NVIDIA publishes no A10G datasheet; 150 W is the A10 datasheet's max power, taken for the AWS part. " +
				idleBasis + "25 W, not measured"),
		},
		{
			// The bandwidth-rich, compute-poor Hopper that AReaL-Hex (Yan et
			// al. 2025) puts on rollout generation: 4.0 TB/s of HBM, about a
			// sixth of the H100's tensor throughput.
			Name: "h20", Vendor: "NVIDIA", DisplayName: "NVIDIA H20 96GB",
			PeakFLOPS: 148e12, Precision: "bf16", PeakFP8: 296e12,
			HBM: 96 * units.GiB, HBMBandwidth: 4000 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: cite(effHopperKin),
			Link: "nvlink4", GPUsPerNode: 8, Server: "NVIDIA HGX H20 (8 GPUs, NVLink 4)",
			Source: cite("UNVERIFIED: NVIDIA publishes no H20 datasheet (a China-market Hopper). 148 TFLOPS dense FP16/BF16, 296 TFLOPS dense FP8, 96 GB HBM3 at 4.0 TB/s and NVLink 900 GB/s as third-party spec listings report them (e.g. willitrunai.com/gpus/h20-96gb; FP8 296 as the INT8 rate of a spec table found by search, taken at Hopper's FP8 = INT8 = 2 × BF16), not a vendor figure"),
			TDP:    400, IdlePower: 70, Price: 1.00, PriceBasis: cite(priceBasis),
			PowerSource: cite("UNCONFIRMED: NVIDIA publishes no H20 datasheet; 400 W as third-party spec listings report it. " +
				idleBasis + "70 W, not measured"),
		},
	}
	gpus = append(gpus, newerGPUs()...)
	sortGPUs(gpus)
	return gpus
}

// newerGPUs are the presets added with FP8 training: the export-market
// H800, one GPU of a GB200 NVL72 rack and the MI325X.
func newerGPUs() []GPU {
	return []GPU{
		{
			// DeepSeek-V3 was trained on 2,048 of these (DeepSeek-AI 2024,
			// §3.1): an H100 whose NVLink is cut to 400 GB/s.
			Name: "h800", Vendor: "NVIDIA", DisplayName: "NVIDIA H800 SXM5 80GB",
			PeakFLOPS: 989.4e12, Precision: "bf16", PeakFP8: 1978.9e12,
			HBM: 80 * units.GiB, HBMBandwidth: 3350 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: cite(effH800),
			Link: "nvlink4-h800", GPUsPerNode: 8, Server: "NVIDIA HGX H800 (8 GPUs, NVSwitch, 400 GB/s NVLink)",
			Source: cite("UNVERIFIED against a vendor datasheet: NVIDIA publishes no H800 SXM5 datasheet found by search. The H100 SXM's compute (BF16 989 and FP8 1,979 TFLOPS dense, 80 GB HBM3 at 3.35 TB/s) with NVLink cut to 400 GB/s, as secondary sources state it (philisun.com and aiwiki.ai/wiki/nvidia_h800: same GH100 die, NVLink 400 GB/s bidirectional against the H100's 900, FP64 cut)"),
			TDP:    700, IdlePower: 100, Price: 2.50, PriceBasis: cite(priceBasis),
			PowerSource: cite("UNCONFIRMED: no H800 SXM5 datasheet found; the H100 SXM's 700 W (same board, NVLink cut). " + h100Idle),
		},
		{
			// One of the 72 Blackwell GPUs of an NVL72 rack, whose single
			// NVLink domain plays the part of the usual server.
			Name: "gb200", Vendor: "NVIDIA", DisplayName: "NVIDIA GB200 NVL72 (one Blackwell GPU)",
			PeakFLOPS: 2.5e15, Precision: "bf16", PeakFP8: 5e15,
			HBM: 186 * units.GiB, HBMBandwidth: 8000 * units.GBps,
			Efficiency: 0.5, EfficiencyBasis: cite(effGB200),
			Link: "nvlink5", GPUsPerNode: 72, Server: "NVIDIA GB200 NVL72 (36 Grace CPUs, 72 Blackwell GPUs in one NVLink 5 domain of 130 TB/s)",
			Source: cite("NVIDIA GB200 NVL72 specifications (rack of 72 GPUs): FP16/BF16 Tensor Core 360 PFLOPS and FP8/FP6 720 PFLOPS with sparsity, i.e. 2.5 and 5 PFLOPS dense per GPU; up to 13.4 TB HBM3e (186 GB per GPU) at 576 TB/s (8 TB/s per GPU); NVLink 5 at 1.8 TB/s per GPU. Confirmed in secondary sources only: DaewooKim/AI-Systems' NVL roadmap (GB200 NVL72 dense FP16 180P, FP8 360P, HBM 576 TB/s), MLCommons inference results v6.1 Crusoe GB200-NVL72 system file (186 GB HBM3e per GPU); NVIDIA's page itself was not in the search corpus, and verda.com lists GB200 FP8 as 4.5 PFLOPS dense, which disagrees"),
			TDP:    1200, IdlePower: 180, Price: 6.00, PriceBasis: cite(priceBasis),
			PowerSource: cite("UNCONFIRMED: about 1,200 W per Blackwell GPU of a GB200 superchip (2,700 W for two GPUs and a Grace CPU) in secondary sources; NVIDIA's page was not in the search corpus. " +
				idleBasis + "180 W, 15% of TDP as for the H100"),
		},
		{
			Name: "mi325x", Vendor: "AMD", DisplayName: "AMD Instinct MI325X",
			PeakFLOPS: 1307.4e12, Precision: "bf16", PeakFP8: 2614.9e12,
			HBM: 256 * units.GiB, HBMBandwidth: 6000 * units.GBps,
			Efficiency: 0.35, EfficiencyBasis: cite(effMI325X),
			Link: "infinity-fabric", GPUsPerNode: 8, Server: "AMD Instinct MI325X Platform (8 OAM GPUs, fully connected Infinity Fabric)",
			Source: cite("AMD Instinct MI325X specifications: MI300X's CDNA 3 compute (peak BF16 1,307.4 and FP8 2,614.9 TFLOPS dense, 5,229.8 FP8 with sparsity), 256 GB HBM3E at 6 TB/s. Confirmed in secondary sources only (awesomeagents.ai/hardware/amd-mi325x; slicast.com's launch report: 256 GB HBM3E, 6 TB/s, 2.6 PFLOPS FP8, 1.3 PFLOPS FP16); AMD's data sheet was not in the search corpus"),
			TDP:    1000, IdlePower: 180, Price: 3.00, PriceBasis: cite(priceBasis),
			PowerSource: cite("AMD Instinct MI325X: 1,000 W peak board power, confirmed in secondary sources only (yobitel.com's MI325X page: TDP about 1,000 W). " +
				idleBasis + "180 W, not measured"),
		},
	}
}
