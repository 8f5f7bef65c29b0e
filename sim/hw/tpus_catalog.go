package hw

import "paraplay/sim/units"

// tpuBook cites the book's chapter 2 table.
const tpuBook = "'How to Scale Your Model' (Austin et al., Google DeepMind, 2025; jax-ml.github.io/scaling-book), Part 2 'How to Think About TPUs', TPU Specs table (read in jax-ml/scaling-book tpus.md, versions of Feb 2025 and later)"

// TPUs returns the TPU accelerator presets (GPUs lists them with the rest).
func tpus() []GPU {
	t := func(name, display, link, server string, per int, peak, fp8 float64, hbm units.Bytes, bw units.Bandwidth, src string) GPU {
		return GPU{Name: name, Vendor: "Google", DisplayName: display, PeakFLOPS: peak, Precision: "bf16", PeakFP8: fp8,
			HBM: hbm, HBMBandwidth: bw, Efficiency: 0.6, EfficiencyBasis: cite(tpuEff), Link: link, GPUsPerNode: per,
			Server: server, Source: src}
	}
	power := map[string][3]float64{ // TDP W, idle W, $ per chip-hour
		"tpu-v4": {200, 60, 3.22}, "tpu-v5e": {200, 60, 1.2}, "tpu-v5p": {300, 90, 4.2}, "tpu-v6e": {300, 90, 2.7}, "tpu7x": {600, 180, 6}}
	withPower := func(gs []GPU) []GPU {
		for i := range gs {
			p := power[gs[i].Name]
			gs[i].TDP, gs[i].IdlePower, gs[i].Price = p[0], p[1], p[2]
			gs[i].PowerSource = cite("UNCONFIRMED: Google publishes no per-chip TDP for its TPUs; a round figure of the order Jouppi et al. (2023) report for TPU v4's mean power, scaled by generation. ASSUMPTION for idle: 30% of it")
			gs[i].PriceBasis = cite("ASSUMPTION: an illustrative on-demand rate per chip-hour of the order of Cloud TPU's list prices (UNCONFIRMED, not read this session)")
		}
		return gs
	}
	return withPower([]GPU{
		t("tpu-v4", "Google TPU v4", "ici-v4", "TPU v4 host (4 chips, 2x2x1)", 4, 275e12, 0, 32*units.GiB, 1200*units.GBps,
			cite("Cloud TPU docs, 'TPU v4' (cloud.google.com/tpu/docs/v4): peak 275 TFLOPS per chip (bf16 or int8, so no faster int8), HBM2 32 GiB at 1,200 GBps; the book's table agrees (2.75e14, 32GB, 1.2e12). "+tpuBook)),
		t("tpu-v5e", "Google TPU v5e", "ici-v5e", "TPU v5e host (8 chips, 4x2)", 8, 197e12, 0, 16*units.GiB, 819*units.GBps,
			cite("Cloud TPU docs, 'TPU v5e' (cloud.google.com/tpu/docs/v5e): peak 197 TFLOPS bf16 and 393 TOPS int8 per chip, HBM2 16 GB at 819 GBps (another version of the page: 800 GiBps), 8 chips per host, 256-chip pod, 2D torus; the book's table: 1.97e14 bf16, 3.94e14 int8, 16GB, 8.1e11 B/s. Int8 is not modelled (no training precision uses it). "+tpuBook)),
		t("tpu-v5p", "Google TPU v5p", "ici-v5p", "TPU v5p host (4 chips, 2x2x1)", 4, 459e12, 0, 95*units.GiB, 2765*units.GBps,
			cite("Cloud TPU docs, 'TPU v5p' (cloud.google.com/tpu/docs/v5p): peak 459 TFLOPs bf16 per chip (FP8 listed at the same 459: no FP8 speed-up, so none modelled), HBM2e 95 GiB at 2,765 GBps, 8,960-chip pod, 3D torus, 4 chips per host; the book's table: 4.59e14 bf16, 9.18e14 int8, 96GB, 2.8e12 B/s (we take the Cloud page's 95 GiB and 2,765 GBps). "+tpuBook)),
		t("tpu-v6e", "Google TPU v6e (Trillium)", "ici-v6e", "TPU v6e host (8 chips, 4x2)", 8, 918e12, 0, 32*units.GiB, 1638*units.GBps,
			cite("Cloud TPU docs, 'TPU v6e' (docs.cloud.google.com/tpu/docs/v6e): peak 918 TFLOPs bf16 and 1,836 TOPs int8 per chip, HBM 32 GB at 1,638 GBps, 8 chips per host, 256-chip pod, 2D torus, two 256x256 MXUs per TensorCore; the book's table: 9.20e14 bf16, 32GB, 1.6e12 B/s (we take the Cloud page's 918). "+tpuBook)),
		t("tpu7x", "Google TPU7x (Ironwood)", "ici-tpu7x", "TPU7x host (4 chips, 2x2x1)", 4, 2307e12, 4614e12, 192*units.GiB, 7380*units.GBps,
			cite("Cloud TPU docs, 'TPU7x (Ironwood)' (docs.cloud.google.com/tpu/docs/tpu7x): peak 2,307 TFLOPs bf16 and 4,614 TFLOPs FP8 per chip, 192 GiB HBM, 9,216-chip pod, 'many similarities with TPU v5p'; GKE's Ironwood page: 4 chips and 2 NICs per VM. HBM bandwidth UNCONFIRMED in a Google page: 7.3 TB/s as press reports of Google's Hot Chips 2025 talk print it (mattfife.com, pakinomist.com), taken as 7,380 GBps; not in the book's table")),
	})
}

// iciLinks are the TPUs' ICI links: one cable to one neighbour, per
// direction. The Cloud pages give each chip's bidirectional total over its
// ports (4 on a 2D torus, 6 on a 3D one); the book's usable per-link
// figure is the Achievable fraction of it.
func iciLinks() []Link {
	ici := func(name, display string, line units.Bandwidth, ach float64, achBasis, src string) Link {
		return Link{Name: name, Kind: KindICI, DisplayName: display, LineRate: line, Achievable: ach, AchievableBasis: achBasis,
			Latency: ICIHop, LatencyBasis: cite(iciAlpha), Source: src}
	}
	book := cite("The book's usable one-way figure per link (" + tpuBook + "; its footnote: the Cloud page's 100 GB/s differs because 'TPU ICI links have slightly different bandwidths depending on the operation')")
	return []Link{
		ici("ici-tpu7x", "ICI (TPU7x), one of 6 links", 100*units.GBps, 0.9,
			cite("ASSUMPTION: v5p's 0.9 (the book's 9e10 of 1e11), not measured on TPU7x"),
			cite("UNCONFIRMED in a Google page: 1.2 TB/s of ICI per chip as press reports of Hot Chips 2025 print it, over 6 links of a 3D torus both ways: 100 GB/s per link per direction")),
		ici("ici-v4", "ICI (TPU v4), one of 6 links", 45*units.GBps, 1,
			cite("The book's one-way figure is taken as the line rate: no per-link Cloud figure was found for v4"),
			cite("The book's table: TPU v4p ICI 4.5e10 bytes/s per link one way, 9e10 both ways. "+tpuBook)),
		ici("ici-v5e", "ICI (TPU v5e), one of 4 links", 50*units.GBps, 0.9, book,
			cite("Cloud TPU docs, 'TPU v5e': bidirectional ICI 400 GBps per chip, 4 ICI ports: 50 GB/s per link per direction; the book: 4.5e10 one way")),
		ici("ici-v5p", "ICI (TPU v5p), one of 6 links", 100*units.GBps, 0.9, book,
			cite("Cloud TPU docs, 'TPU v5p': bidirectional ICI 1,200 GBps per chip (an older version: 4,800 Gbps), 6 links of a 3D torus: 100 GB/s per link per direction; the book: 9e10 one way")),
		ici("ici-v6e", "ICI (TPU v6e), one of 4 links", 100*units.GBps, 0.9, book,
			cite("Cloud TPU docs, 'TPU v6e': bidirectional ICI 800 GBps per chip, 4 ICI ports: 100 GB/s per link per direction; the book: 9e10 one way")),
	}
}

const iciAlpha = "The book, Part 3 'Sharded Matrices': 'Each hop over an ICI link has some intrinsic overhead regardless of the data volume. This is typically around 1us'; its v5e worked problem takes 1 µs per hop"

// Pods returns the TPU pods, sorted by their preset's name.
func Pods() []Pod {
	return []Pod{
		{TPU: "tpu-v4", Dims: 3, Max: [3]int{16, 16, 16}, Chips: 4096, Cube: 4, Host: [3]int{2, 2, 1}, PCIe: 16 * units.GBps, DCN: 25 * units.GBps,
			Source: cite("Cloud TPU docs, 'TPU v4': 4,096-chip pod, 3D, torus on slices of whole 4x4x4 cubes, twisted tori where AxBxC has 2A=B=C or 2A=2B=C. The book: superpod 16x16x16, host 2x2x1, PCIe 'for TPU v4 is 16GB / second each way', DCN 'typically around 2.5e10 bytes / second per host' (its Feb 2025 version). " + tpuBook)},
		{TPU: "tpu-v5e", Dims: 2, Max: [3]int{16, 16, 1}, Chips: 256, Wrap: 16, Host: [3]int{4, 2, 1}, PCIe: 16 * units.GBps, DCN: 25 * units.GBps,
			Source: cite("Cloud TPU docs, 'TPU v5e': 256-chip pod, 2D torus, 8 chips per host, per-host NICs 2 x 100 Gbps (25 GB/s; the book: 3.125e9 per TPU, the same). The book: pod 16x16, host 4x2, wraparound only on an axis of 16 ('smaller topologies can be requested without wraps on dims < 16'), PCIe about 1.6e10 per TPU (1.5e10 in its Feb 2025 version). " + tpuBook)},
		{TPU: "tpu-v5p", Dims: 3, Max: [3]int{16, 20, 28}, Chips: 8960, Cube: 4, Host: [3]int{2, 2, 1}, PCIe: 16 * units.GBps, DCN: 25 * units.GBps,
			Source: cite("Cloud TPU docs, 'TPU v5p': 8,960-chip pod (its largest schedulable slice 16x16x24), 3D torus, 4 chips per host, DCN 50 Gbps per chip (25 GB/s per host; the book: 6.25e9 per TPU, the same), twisted tori on 4x4x8, 4x8x8, 8x8x16, 8x16x16; OCS between cubes, copper inside. The book: superpod 16x20x28 (taken as the largest shape), cubes of 4x4x4 joined by optical switches, 'any multiple of a full cube ... will have wraparounds', a 2x2x4 none; PCIe about 1.6e10 per TPU. " + tpuBook)},
		{TPU: "tpu-v6e", Dims: 2, Max: [3]int{16, 16, 1}, Chips: 256, Wrap: 16, Host: [3]int{4, 2, 1}, PCIe: 32 * units.GBps, DCN: 100 * units.GBps,
			Source: cite("Cloud TPU docs, 'TPU v6e': 256-chip pod, 2D torus, 8 chips per host, PCIe Gen5 to the host. The book: pod 16x16, host 4x2, PCIe 3.2e10 per TPU, DCN 12.5e9 bytes/s per TPU (1e11 per host; the Cloud page's NIC row was not seen). " + tpuBook)},
		{TPU: "tpu7x", Dims: 3, Max: [3]int{16, 24, 24}, Chips: 9216, Cube: 4, Host: [3]int{2, 2, 1}, PCIe: 32 * units.GBps, DCN: 25 * units.GBps,
			Source: cite("Cloud TPU docs, 'TPU7x (Ironwood)': 9,216-chip pod sharing 'many similarities with TPU v5p'; press reports of Hot Chips 2025: 3D torus ICI and optical circuit switches. UNCONFIRMED: the largest shape 16x24x24 (chosen to hold 9,216 chips in 4x4x4 cubes), the cube of 4 (v5p's), PCIe 3.2e10 per chip (v6e's) and DCN 25 GB/s per host of 4 (v5p's; GKE's page: 2 NICs per VM, their speed not seen)")},
	}
}
