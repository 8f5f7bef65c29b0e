package hw

import (
	"paraplay/sim/units"
)

// pcieX16 is the per-direction rate of a x16 slot: transfers per second per
// lane × 16 lanes × 128b/130b encoding (PCIe 3.0 and later) / 8 bits.
func pcieX16(gtPerSecond float64) units.Bandwidth {
	return units.Bandwidth(gtPerSecond * 16 * 128 / 130 / 8)
}

// Latency and efficiency bases shared by several links.
const (
	// ncclTuning is the source of the per-hop latencies: NCCL's own cost
	// model. LL128 is the protocol NCCL picks for small and medium messages.
	ncclTuning  = "NVIDIA/nccl src/graph/tuning.cc (commit 01afd20), hwLat table: per-hop ring latency with the LL128 protocol"
	nvlinkAlpha = ncclTuning + ", NVLink 1.9 µs"
	pcieAlpha   = ncclTuning + ", PCI 2.5 µs"
	netAlpha    = ncclTuning + ", network (NCCL does not tell InfiniBand from RoCE) 4.0 µs"
	nccl80      = "ASSUMPTION fitted to no measurement: NCCL maintainer sjeaugey, NVIDIA/nccl issue #1054: 'Roughly, the app-level bandwidth is 80% of the peak bandwidth' of NVLink."
	pcie80      = "ASSUMPTION: TLP headers and flow control cost 10–15% of a x16 link; NCCL through PCIe switches gets less. Not fitted to an all-reduce measurement."
	ib90        = "ASSUMPTION, loosely checked: NVIDIA/nccl-tests issue #119 reports all_reduce_perf busbw averaging 84.8 and peaking at 96 GB/s against 100 GB/s of HDR per node (3× 8 A100, 4× HDR each)."
	roce85      = "ASSUMPTION: a little below InfiniBand for congestion control on lossless Ethernet; not measured."
	tcpAlpha    = "ASSUMPTION: NCCL's socket transport over kernel TCP in one data centre costs tens of µs per message."
	wanAlpha    = "ASSUMPTION: one-way delay of a continental path, ~4,000 km of fibre at 2×10⁸ m/s (20 ms) plus routing; RTT ~60 ms."
	// SHARPSource is the basis of Link.SHARP on the InfiniBand presets.
	SHARPSource = "NVIDIA SHARP documentation (docs.nvidia.com/networking): SHARP offloads collectives from the hosts to the switch network, so data is not sent several times between endpoints; NVIDIA Technical Blog, Oct 2024 (seen in a secondary copy, cryptopulpit.com): SHARP is built into NVIDIA's InfiniBand switches, in generations since SHARPv1. Which generation each of HDR Quantum, NDR Quantum-2 and XDR Quantum-X800 carries is UNCONFIRMED here"
	wanFraction = "ASSUMPTION: several parallel TCP streams over a long fat pipe with some loss; not measured."
)

// Links returns the link catalog sorted by name. Every call builds a fresh
// slice, so the caller may change it freely.
func Links() []Link {
	links := append(nvLinks(), networkLinks()...)
	sortLinks(links)
	return links
}

// nvLinks are the links inside a server: NVLink, Infinity Fabric and PCIe.
func nvLinks() []Link {
	return []Link{
		{
			Name: "nvlink2", Kind: KindNVLink, DisplayName: "NVLink 2 (V100 SXM2)",
			LineRate: 6 * 25 * units.GBps, Achievable: 0.8, AchievableBasis: cite(nccl80),
			Latency: 1900 * units.Nanosecond, LatencyBasis: cite(nvlinkAlpha),
			Source: cite("NVIDIA Tesla V100 GPU Datasheet, SXM2: NVLink 300 GB/s = 6 links × 25 GB/s per direction × 2 directions"),
		},
		{
			Name: "nvlink3", Kind: KindNVLink, DisplayName: "NVLink 3 via NVSwitch (A100 SXM4)",
			LineRate: 12 * 25 * units.GBps, Achievable: 0.77,
			AchievableBasis: cite("Fitted: 231 GB/s model vs 230 GB/s measured ring busbw (see MeasuredSource); NCCL's ~20 of 25 GB/s per link (128 B payloads) less other GPU bottlenecks."),
			Latency:         1900 * units.Nanosecond, LatencyBasis: cite(nvlinkAlpha),
			Source:        cite("NVIDIA A100 Tensor Core GPU Datasheet, SXM: NVLink 600 GB/s = 12 links × 25 GB/s per direction × 2 directions"),
			MeasuredBusBW: 230 * units.GBps,
			MeasuredSource: cite("NVIDIA/nccl-tests issue #149 (8× A100-SXM4-80GB), NCCL maintainer sjeaugey, 2023-07-05: 12 NVLinks at ~20 GB/s effective = 240 GB/s, " +
				"'other bottlenecks on the GPUs limits it to ~230GB/s'; all_reduce_perf at 8 GB 'should reach 230 GB/s'. " +
				"NCCL's tuning model caps sm80 bus bandwidth at 235 GB/s (NVIDIA/nccl src/graph/tuning.cc)."),
		},
		{
			Name: "nvlink4", Kind: KindNVLink, DisplayName: "NVLink 4 via NVSwitch (H100/H200 SXM)",
			LineRate: 18 * 25 * units.GBps, Achievable: 0.82,
			AchievableBasis: cite("Fitted: 369 GB/s model vs 370 GB/s measured ring busbw (see MeasuredSource); NCCL protocol overhead ~20%."),
			Latency:         1900 * units.Nanosecond, LatencyBasis: cite(nvlinkAlpha),
			Source:        cite("NVIDIA H100 Tensor Core GPU Datasheet, H100 SXM column: NVLink 900 GB/s = 18 links × 25 GB/s per direction × 2 directions"),
			MeasuredBusBW: 370 * units.GBps,
			MeasuredSource: cite("NVIDIA/nccl-tests issue #212 (8× H100 SXM), NCCL maintainer sjeaugey, 2024-05-06: '450GB/s is the line rate. With the protocol overhead (~20%) " +
				"NCCL can get an effective NVLink bandwidth of 370GB/s, which you can observe as BusBw ... when running with NCCL_ALGO=RING'. " +
				"Corroborated by NVIDIA/nccl issue #1455: 8× H100 SXM, NCCL_ALGO=RING, all_reduce_perf 2–4 GB, busbw 365–370 GB/s. " +
				"(The default NVLS algorithm reports ~480 GB/s busbw, which is not wire bandwidth.)"),
		},
		{
			Name: "nvlink4-h800", Kind: KindNVLink, DisplayName: "NVLink 4 at 400 GB/s via NVSwitch (H800 SXM)",
			LineRate: 8 * 25 * units.GBps, Achievable: 0.8,
			AchievableBasis: cite(nccl80 + " Consistent with DeepSeek-V3 technical report (arXiv 2412.19437) §3.2.2 on its H800 nodes: 'NVLink offers a bandwidth of 160 GB/s', 0.8 of 200 GB/s (quote confirmed in an arXiv HTML copy by exact-string search); not an nccl-tests measurement."),
			Latency:         1900 * units.Nanosecond, LatencyBasis: cite(nvlinkAlpha),
			Source: cite("UNVERIFIED against a vendor datasheet: H800 SXM NVLink 400 GB/s both directions as secondary sources state it (philisun.com, aiwiki.ai/wiki/nvidia_h800), i.e. 200 GB/s per direction, written here as 8 links × 25 GB/s; how NVIDIA cut the 18 links of the H100 (fewer links or slower ones) is not confirmed and does not change the rate"),
		},
		{
			Name: "nvlink5", Kind: KindNVLink, DisplayName: "NVLink 5 via NVLink Switch (B200)",
			LineRate: 18 * 50 * units.GBps, Achievable: 0.8, AchievableBasis: cite(nccl80),
			Latency: 1900 * units.Nanosecond, LatencyBasis: cite(nvlinkAlpha + " (taken from NVLink 4; not measured on NVLink 5)"),
			Source: cite("NVIDIA DGX B200 Datasheet / HGX B200 specifications: fifth-generation NVLink 1.8 TB/s per GPU = 18 links × 50 GB/s per direction × 2 directions"),
		},
		{
			Name: "infinity-fabric", Kind: KindInfinityFabric, DisplayName: "AMD Infinity Fabric mesh (MI300X)",
			LineRate: 7 * 64 * units.GBps, Achievable: 0.75,
			AchievableBasis: cite("AMD ROCm blog, 'Understanding RCCL Bandwidth and xGMI Performance on AMD Instinct MI300X' (Kolla, Alizadeh & Lee, 2025-03-02): CRC correction and protocol overhead leave about 48 of each link's 64 GB/s usable, ~75% (read in the search corpus's copy of the blog). A single ring uses one such cable; the direct collectives use all seven."),
			Latency:         1900 * units.Nanosecond, LatencyBasis: cite(nvlinkAlpha + " (RCCL inherits NCCL's model; not measured on MI300X)"),
			Source:    cite("AMD Instinct MI300X Accelerator Data Sheet: 7 Infinity Fabric links × 128 GB/s (896 GB/s peer-to-peer, both directions); in the 8-GPU platform one link per peer, 7 × 64 GB/s per direction. Confirmed by AMD's ROCm blog (2025-03-02, see AchievableBasis: each GPU joined to its seven peers by xGMI, a fully connected mesh, 64 GB/s per point-to-point link) and secondary sources (the data sheet itself was not in the search corpus): wheelersnetwork.com, 2024-01, 'AMD Looks to Infinity': up to seven links of 16 lanes at 32 Gb/s, 128 GB/s both directions per link, GPUs joined directly in a mesh; emergentmind.com's MI300X page: 448 GB/s aggregate in an 8-GPU system"),
			MeshPeers: 7,
		},
		{
			Name: "pcie3", Kind: KindPCIe, DisplayName: "PCIe 3.0 x16",
			LineRate: pcieX16(8e9), Achievable: 0.8, AchievableBasis: cite(pcie80),
			Latency: 2500 * units.Nanosecond, LatencyBasis: cite(pcieAlpha),
			Source: cite("PCI-SIG PCI Express Base Specification 3.0: 8 GT/s per lane, 128b/130b; x16 = 15.75 GB/s per direction"),
		},
		{
			Name: "pcie4", Kind: KindPCIe, DisplayName: "PCIe 4.0 x16",
			LineRate: pcieX16(16e9), Achievable: 0.8, AchievableBasis: cite(pcie80),
			Latency: 2500 * units.Nanosecond, LatencyBasis: cite(pcieAlpha),
			Source: cite("PCI-SIG PCI Express Base Specification 4.0: 16 GT/s per lane, 128b/130b; x16 = 31.5 GB/s per direction"),
		},
		{
			Name: "pcie5", Kind: KindPCIe, DisplayName: "PCIe 5.0 x16",
			LineRate: pcieX16(32e9), Achievable: 0.8, AchievableBasis: cite(pcie80),
			Latency: 2500 * units.Nanosecond, LatencyBasis: cite(pcieAlpha),
			Source: cite("PCI-SIG PCI Express Base Specification 5.0: 32 GT/s per lane, 128b/130b; x16 = 63 GB/s per direction"),
		},
	}
}

// networkLinks are the links between servers, from InfiniBand to WAN.
func networkLinks() []Link {
	return []Link{
		{
			Name: "ib-edr", Kind: KindInfiniBand, DisplayName: "InfiniBand EDR 100 Gb/s",
			LineRate: 100 * units.Gbps, Achievable: 0.9, AchievableBasis: ib90,
			Latency: 4 * units.Microsecond, LatencyBasis: netAlpha,
			Source: "InfiniBand Trade Association, InfiniBand Architecture Specification: EDR 4x port = 100 Gb/s; Mellanox ConnectX-4/5 (100 Gb/s), the V100 generation's NIC",
		},
		{
			Name: "ib-hdr", Kind: KindInfiniBand, DisplayName: "InfiniBand HDR 200 Gb/s",
			LineRate: 200 * units.Gbps, Achievable: 0.9, AchievableBasis: cite(ib90),
			Latency: 4 * units.Microsecond, LatencyBasis: cite(netAlpha),
			Source: cite("InfiniBand Trade Association, InfiniBand Architecture Specification: HDR 4x port = 200 Gb/s; NVIDIA ConnectX-6 VPI (200 Gb/s)"),
			SHARP:  true, // SHARPSource
		},
		{
			Name: "ib-ndr", Kind: KindInfiniBand, DisplayName: "InfiniBand NDR 400 Gb/s",
			LineRate: 400 * units.Gbps, Achievable: 0.9, AchievableBasis: cite(ib90),
			Latency: 4 * units.Microsecond, LatencyBasis: cite(netAlpha),
			Source: cite("InfiniBand Trade Association, InfiniBand Architecture Specification: NDR 4x port = 400 Gb/s; NVIDIA ConnectX-7 / Quantum-2 (400 Gb/s), one NIC per GPU in DGX H100"),
			SHARP:  true, // SHARPSource
		},
		{
			Name: "ib-xdr", Kind: KindInfiniBand, DisplayName: "InfiniBand XDR 800 Gb/s",
			LineRate: 800 * units.Gbps, Achievable: 0.9, AchievableBasis: cite(ib90 + " Carried over to XDR unmeasured."),
			Latency: 4 * units.Microsecond, LatencyBasis: cite(netAlpha),
			Source: cite("NVIDIA Quantum-X800 InfiniBand platform: ConnectX-8 SuperNIC, XDR 800 Gb/s per port"),
			SHARP:  true, // SHARPSource
		},
		{
			Name: "roce-400g", Kind: KindRoCE, DisplayName: "RoCE v2 over 400 GbE",
			LineRate: 400 * units.Gbps, Achievable: 0.85, AchievableBasis: cite(roce85),
			Latency: 4 * units.Microsecond, LatencyBasis: cite(netAlpha),
			Source: cite("IEEE 802.3bs-2017 (400 Gb/s Ethernet); NVIDIA ConnectX-7 (400 GbE, RoCE v2)"),
		},
		{
			Name: "eth-10g", Kind: KindEthernet, DisplayName: "10 Gb Ethernet (TCP)",
			LineRate: 10 * units.Gbps, Achievable: 0.9,
			AchievableBasis: cite("ASSUMPTION: TCP over a 1500-byte MTU carries ~95% of the line as payload; one host saturates 10 GbE."),
			Latency:         25 * units.Microsecond, LatencyBasis: cite(tcpAlpha),
			Source: cite("IEEE 802.3ae-2002 (10 Gb/s Ethernet)"),
		},
		{
			Name: "eth-100g", Kind: KindEthernet, DisplayName: "100 Gb Ethernet (TCP)",
			LineRate: 100 * units.Gbps, Achievable: 0.7,
			AchievableBasis: cite("ASSUMPTION: kernel TCP sockets rarely fill 100 GbE from one process without tuning; not measured."),
			Latency:         25 * units.Microsecond, LatencyBasis: cite(tcpAlpha),
			Source: cite("IEEE 802.3ba-2010 (100 Gb/s Ethernet)"),
		},
		{
			Name: "wan-100m", Kind: KindWAN, DisplayName: "WAN 100 Mb/s",
			LineRate: 100 * units.Gbps / 1000, Achievable: 0.8, AchievableBasis: cite(wanFraction),
			Latency: 30 * units.Millisecond, LatencyBasis: cite(wanAlpha),
			Source: cite("Nominal 100 Mb/s access circuit; the rate of the preset, not a measured path"),
		},
		{
			Name: "wan-1g", Kind: KindWAN, DisplayName: "WAN 1 Gb/s",
			LineRate: 1 * units.Gbps, Achievable: 0.8, AchievableBasis: cite(wanFraction),
			Latency: 30 * units.Millisecond, LatencyBasis: cite(wanAlpha),
			Source: cite("Nominal 1 Gb/s access circuit; the rate of the preset, not a measured path"),
		},
		{
			Name: "wan-10g", Kind: KindWAN, DisplayName: "WAN 10 Gb/s",
			LineRate: 10 * units.Gbps, Achievable: 0.8, AchievableBasis: cite(wanFraction),
			Latency: 30 * units.Millisecond, LatencyBasis: cite(wanAlpha),
			Source: cite("Nominal 10 Gb/s wavelength or circuit; the rate of the preset, not a measured path"),
		},
	}
}
