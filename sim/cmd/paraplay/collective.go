package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"paraplay/sim/budget"
	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/nccltest"
	"paraplay/sim/taskgraph"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

const collectiveUsage = `paraplay collective simulates one collective over a range of sizes and
prints what nccl-tests would: size, count, type, time, algbw and busbw.

Examples:
  paraplay collective --op all_reduce --algo ring --gpus 8 --link-bw 100GB/s --link-latency 5us --size 1GiB
  paraplay collective --op all_reduce --gpus 8 --gpu h100-sxm -b 1K -e 8G -f 4
  paraplay collective --op all_reduce --algo tree --nodes 8 --gpus-per-node 8 --inter ib-ndr -b 8 -e 1G
  paraplay collective --algo ring --nodes 128 --gpus-per-node 8 --size 1GiB --fidelity detailed --budget memory=8GiB

Flags:
`

// collectiveFlags are the command's settings.
type collectiveFlags struct {
	op, algo, fidelity    string
	proto                 string
	gpus, nodes, perNode  int
	gpu, link, inter, net string
	oversub               float64
	linkBW, linkLat       string
	size, minB, maxB      string
	factor                float64
	chunks, root          int
	channels              int
	json                  bool
	trace                 string
	// budget is --budget, as run takes it, and limits what it says
	// (budget.Parse).
	budget string
	limits budget.Limits
	// topology, axes and wrap name a TPU slice (collectiveTPU).
	topology, axes, wrap string
	twisted              bool
}

func collectiveCommand(args []string, stdout, stderr io.Writer) int {
	var f collectiveFlags
	fs := collectiveFlagSet(&f, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "paraplay collective: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	limits, err := budget.Parse(f.budget)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay collective: %v\n", err)
		return exitUsage
	}
	f.limits = limits
	if f.linkBW != "" && !flagSet(fs, "proto") {
		f.proto = "none" // a link of the user's own α and bandwidth: NCCL's per-hardware protocol costs do not apply
	}
	if f.topology != "" {
		return f.tpu(stdout, stderr)
	}
	built, sizes, err := f.resolve()
	if err != nil {
		fmt.Fprintf(stderr, "paraplay collective: %v\n", err)
		return exitUsage
	}
	return f.sweep(built, sizes, stdout, stderr)
}

// flagSet says whether the command line set the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// collectiveFlagSet declares the collective command's flags into f.
func collectiveFlagSet(f *collectiveFlags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("paraplay collective", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, collectiveUsage); fs.PrintDefaults() }
	fs.StringVar(&f.op, "op", "all_reduce", "operation: "+strings.Join(collective.Ops(), ", "))
	fs.StringVar(&f.algo, "algo", "auto", "algorithm: ring, tree, halving_doubling, recursive_doubling, hierarchical, ps, direct (all-reduce straight to every peer, auto's pick on a mesh such as MI300X; also sendrecv's), nvls (NVLink SHARP, one node of NVLink 4 or 5), collnet (IB SHARP in-network reduction across nodes of ib-hdr/ndr/xdr; never auto's pick, as NCCL needs NCCL_COLLNET_ENABLE), binomial, chain, pairwise, pxn (all-to-all through the NVLink peer on the destination's rail, across nodes), dissemination or auto")
	fs.StringVar(&f.proto, "proto", nccltest.ProtocolAuto, "NCCL protocol: simple, ll, ll128, auto (the fastest predicted, with --algo auto also the algorithm) or none (the catalog's links as they are; the default with --link-bw)")
	fs.IntVar(&f.gpus, "gpus", 0, "number of GPUs (default: nodes × gpus-per-node)")
	fs.IntVar(&f.nodes, "nodes", 0, "number of nodes (default: enough for --gpus)")
	fs.IntVar(&f.perNode, "gpus-per-node", 0, "GPUs per node (default: the GPU preset's server)")
	fs.StringVar(&f.gpu, "gpu", "h100-sxm", "GPU preset (paraplay presets lists them)")
	fs.StringVar(&f.link, "link", "", "intra-node link preset (default: the GPU preset's)")
	fs.StringVar(&f.inter, "inter", "ib-ndr", "inter-node NIC preset, one per GPU")
	fs.StringVar(&f.net, "network", string(topo.RailOptimized), "inter-node wiring: rail-optimized or fat-tree")
	fs.Float64Var(&f.oversub, "oversubscription", 1, "fat tree leaf down:up ratio")
	fs.StringVar(&f.linkBW, "link-bw", "", "uniform link bandwidth (e.g. 100GB/s): every GPU on an ideal switch, overriding the presets")
	fs.StringVar(&f.linkLat, "link-latency", "0us", "uniform link latency α (with --link-bw)")
	fs.StringVar(&f.size, "size", "", "one buffer size (e.g. 1GiB); overrides -b/-e")
	fs.StringVar(&f.minB, "b", "8", "smallest size (nccl-tests -b; 1K = 1024 bytes)")
	fs.StringVar(&f.maxB, "e", "128M", "largest size (nccl-tests -e)")
	fs.Float64Var(&f.factor, "f", 2, "size multiplication factor (nccl-tests -f), > 1")
	fs.IntVar(&f.chunks, "chunks", 1, "pipeline pieces per message (ring, tree, chain)")
	fs.IntVar(&f.root, "root", 0, "root rank (broadcast, reduce)")
	fs.IntVar(&f.channels, "channels", 0, fmt.Sprintf("parallel rings of a ring op (NCCL's nChannels), 1..%d; 0 = one per NIC of a node across nodes", collective.MaxChannels))
	fs.StringVar(&f.fidelity, "fidelity", taskgraph.Auto, "detailed (every message simulated), analytic (closed form) or auto")
	fs.BoolVar(&f.json, "json", false, "print JSON instead of the table")
	fs.StringVar(&f.trace, "trace", "", "write the Chrome trace of the largest size to this file")
	fs.StringVar(&f.budget, "budget", "cli", "the work a detailed run may ask for: cli, browser, or key=value,… (events, transfers, memory, trace), as run takes it")
	fs.StringVar(&f.topology, "topology", "", "a TPU slice's shape, e.g. 4x4x4 (--gpu a TPU preset): the torus collective on its ICI links")
	fs.StringVar(&f.axes, "axes", "", "the slice's torus axes the collective spans, e.g. x or xy (default: every axis longer than 1)")
	fs.StringVar(&f.wrap, "wraparound", "auto", "auto (the wraparound links the pod gives the slice) or none")
	fs.BoolVar(&f.twisted, "twisted", false, "wire the slice as a twisted torus (k×k×2k or k×2k×2k shapes of v4 and v5p)")
	return fs
}

// resolve turns the flags into a cluster and a list of sizes.
func (f *collectiveFlags) resolve() (*cluster.Built, []units.Bytes, error) {
	spec := cluster.Spec{GPU: f.gpu, Nodes: f.nodes, PerNode: f.perNode, Intra: f.link, Inter: f.inter,
		Network: topo.Network(f.net), Oversubscription: f.oversub}
	var errs []error
	if f.linkBW != "" {
		bw, err := units.ParseBandwidth(f.linkBW)
		if err != nil {
			errs = append(errs, fmt.Errorf("--link-bw: %w", err))
		}
		lat, err := units.ParseTime(f.linkLat)
		if err != nil {
			errs = append(errs, fmt.Errorf("--link-latency: %w", err))
		}
		spec.Bandwidth, spec.Latency = bw, lat
	}
	if f.proto != nccltest.ProtocolAuto && f.proto != "none" {
		if _, err := collective.ProtocolByName(f.proto); err != nil {
			errs = append(errs, fmt.Errorf("--proto: is %q; allowed auto, none, %s", f.proto, strings.Join(collective.ProtocolNames(), ", ")))
		}
	}
	if f.channels < 0 || f.channels > collective.MaxChannels {
		errs = append(errs, fmt.Errorf("--channels: is %d; allowed 0 (one per NIC) to %d", f.channels, collective.MaxChannels))
	}
	if f.gpus < 0 || f.gpus > cluster.MaxGPUs {
		errs = append(errs, fmt.Errorf("--gpus: is %d; allowed 2..%d", f.gpus, cluster.MaxGPUs))
	}
	if f.gpus > 0 {
		if spec.PerNode == 0 {
			spec.PerNode = f.gpus // one node unless told otherwise or too many
			if spec.Nodes > 1 {
				spec.PerNode = f.gpus / spec.Nodes
			}
		}
		if f.nodes == 0 && spec.Bandwidth == 0 && f.perNode == 0 {
			spec.PerNode = 0 // let the preset decide, then split --gpus over nodes
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	if f.gpus > 0 && spec.PerNode == 0 {
		// --gpus alone: fill nodes of the GPU preset's size.
		probe, err := cluster.Build(cluster.Spec{GPU: spec.GPU})
		if err != nil {
			return nil, nil, err
		}
		per := probe.Spec.PerNode
		if f.gpus <= per {
			spec.PerNode = f.gpus
		} else {
			if f.gpus%per != 0 {
				return nil, nil, fmt.Errorf("--gpus: %d is not a multiple of %d GPUs per %s node; give --nodes and --gpus-per-node", f.gpus, per, spec.GPU)
			}
			spec.Nodes, spec.PerNode = f.gpus/per, per
		}
	}
	built, err := cluster.Build(spec)
	if err != nil {
		return nil, nil, err
	}
	if f.gpus > 0 && f.gpus != len(built.Topology.GPUs) {
		return nil, nil, fmt.Errorf("--gpus: %d does not equal nodes × gpus-per-node = %d", f.gpus, len(built.Topology.GPUs))
	}
	sizes, err := f.sizes()
	return built, sizes, err
}

// sizes lists the buffer sizes of the sweep, nccl-tests style.
func (f *collectiveFlags) sizes() ([]units.Bytes, error) {
	if f.size != "" {
		s, err := parseNCCLSize(f.size)
		if err != nil {
			return nil, fmt.Errorf("--size: %w", err)
		}
		return []units.Bytes{s}, nil
	}
	lo, err := parseNCCLSize(f.minB)
	if err != nil {
		return nil, fmt.Errorf("-b: %w", err)
	}
	hi, err := parseNCCLSize(f.maxB)
	if err != nil {
		return nil, fmt.Errorf("-e: %w", err)
	}
	if hi < lo {
		return nil, fmt.Errorf("-e: %v is smaller than -b %v", hi, lo)
	}
	if !(f.factor > 1) || math.IsInf(f.factor, 0) {
		return nil, fmt.Errorf("-f: is %v; must be > 1", f.factor)
	}
	var out []units.Bytes
	for s := float64(lo); s <= float64(hi) && len(out) < 200; s *= f.factor {
		out = append(out, units.Bytes(s))
	}
	return out, nil
}

// parseNCCLSize reads a size as nccl-tests does (a number with an optional
// K, M, G or T suffix, powers of 1024) or in ParaPlay's units ("1GiB").
func parseNCCLSize(s string) (units.Bytes, error) {
	mult := map[byte]units.Bytes{'K': units.KiB, 'M': units.MiB, 'G': units.GiB, 'T': units.TiB}
	t := strings.TrimSpace(s)
	m := units.Bytes(1)
	if t != "" {
		if k, ok := mult[t[len(t)-1]]; ok {
			m, t = k, t[:len(t)-1]
		}
	}
	if n, err := strconv.ParseUint(t, 10, 62); err == nil {
		if n == 0 || n > uint64(units.TiB/m) {
			return 0, fmt.Errorf("size %q: allowed 1B..1TiB", s)
		}
		return units.Bytes(n) * m, nil
	}
	b, err := units.ParseBytes(s)
	if err != nil || b < 1 || b > units.TiB {
		return 0, fmt.Errorf("size %q: want bytes (e.g. 1024, 8K, 1G, 256MiB), 1B..1TiB", s)
	}
	return b, nil
}

// checkBudget refuses a detailed collective whose messages (bounded by
// collective.Messages) are over the command line's budget, before it is
// built: 4,096 GPUs of a detailed ring ran out of memory.
func (f *collectiveFlags) checkBudget(n int, cfg collective.Config) error {
	if f.fidelity == taskgraph.Analytic || f.fidelity == taskgraph.Auto && n > taskgraph.AutoDetailedRanks {
		return nil
	}
	msgs := budget.Count{N: collective.Messages(f.op, f.algo, cfg), Why: fmt.Sprintf("%d GPUs (%s %s)", n, f.algo, collective.Label(f.op)),
		Field: "--fidelity", Fix: "use --fidelity analytic, fewer GPUs or fewer --chunks, or raise --budget (e.g. --budget memory=8GiB)"}
	l := f.limits
	if f.trace == "" {
		l.TraceBytes = math.Inf(1) // no trace is written
	}
	w := budget.Of(budget.Items{Transfers: msgs, GPUs: n})
	w.Memory.N += collective.BuildBytes(f.op, f.algo, cfg) // the schedule builder's table, as nccltest.Strategy.Work
	return l.Check(w)
}

// result is one line of the table, with the JSON field names the issue asks for.
type result struct {
	Bytes     int64  `json:"bytes"`
	Count     int64  `json:"count"`
	Type      string `json:"type"`
	Redop     string `json:"redop"`
	Algorithm string `json:"algorithm"`
	// Protocol is the NCCL protocol it ran with; empty with --proto none.
	Protocol string  `json:"protocol,omitempty"`
	Channels int     `json:"channels,omitempty"`
	TimeS    float64 `json:"time_s"`
	AlgBW    float64 `json:"algbw_GBps"`
	BusBW    float64 `json:"busbw_GBps"`
	Fidelity string  `json:"fidelity"`
	// Why is what --algo auto picked over what (nccltest.Choice.Reason).
	Why string `json:"auto_reason,omitempty"`
}

// redop is the reduction nccl-tests prints for op: sum for the reducing
// ops, none for the others.
func redop(op string) string {
	switch op {
	case "all_reduce", "reduce_scatter", "reduce":
		return "sum"
	}
	return "none"
}

func (f *collectiveFlags) sweep(built *cluster.Built, sizes []units.Bytes, stdout, stderr io.Writer) int {
	n := len(built.Topology.GPUs)
	var results []result
	for i, s := range sizes {
		cfg := collective.Config{Ranks: n, Nodes: built.Spec.Nodes, PerNode: built.Spec.PerNode, Bytes: s, Root: f.root, Chunks: f.chunks, Channels: f.channels}
		if cfg.Channels == 0 {
			cfg.Channels = collective.DefaultChannels(cfg.Nodes, cfg.PerNode)
		}
		if err := f.checkBudget(n, cfg); err != nil {
			fmt.Fprintf(stderr, "paraplay collective: %v\n", err)
			return exitUsage
		}
		proto := strings.ToLower(f.proto)
		if proto == "none" {
			proto = nccltest.ProtocolNone
		}
		catalog := built.Spec.Bandwidth == 0
		opts := nccltest.Options{Protocol: proto, NVLS: catalog && nccltest.NVLSCapable(built.Spec.Intra),
			SHARP: catalog && built.Spec.Nodes > 1 && nccltest.SHARPCapable(built.Spec.Inter)}
		m, tl, err := nccltest.MeasureWith(built.Topology, f.op, f.algo, opts, cfg, f.fidelity)
		if err != nil {
			fmt.Fprintf(stderr, "paraplay collective: %v\n", err)
			return exitUsage
		}
		results = append(results, result{Bytes: int64(s), Count: int64(s) / 4, Type: "float", Redop: redop(f.op), Algorithm: m.Algorithm, Protocol: m.Protocol,
			Channels: m.Channels, TimeS: m.Time.Seconds(), AlgBW: float64(m.AlgBW) / 1e9, BusBW: float64(m.BusBW) / 1e9,
			Fidelity: m.Fidelity, Why: m.Why})
		if f.trace != "" && i == len(sizes)-1 {
			if err := writeFile(f.trace, tl.WriteChromeTrace); err != nil {
				fmt.Fprintf(stderr, "paraplay collective: %v\n", err)
				return exitError
			}
		}
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err := enc.Encode(struct {
			Op      string   `json:"op"`
			Algo    string   `json:"algo"`
			GPUs    int      `json:"gpus"`
			Cluster string   `json:"cluster"`
			Results []result `json:"results"`
		}{f.op, f.algo, n, built.Description, results})
		if err != nil {
			fmt.Fprintf(stderr, "paraplay collective: %v\n", err)
			return exitError
		}
		return 0
	}
	writeTable(stdout, f.op, f.algo, n, built.Description, results)
	return 0
}

// writeTable prints results with nccl-tests' columns.
func writeTable(w io.Writer, op, algo string, n int, desc string, rs []result) {
	fmt.Fprintf(w, "# paraplay collective: %s, algorithm %s, %d GPUs\n", op, algo, n)
	fmt.Fprintf(w, "# cluster: %s\n#\n", desc)
	fmt.Fprintf(w, "# %10s %12s %8s %6s %6s %12s %8s %8s  %-10s %-6s %8s %s\n", "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "algorithm", "proto", "channels", "fidelity")
	fmt.Fprintf(w, "# %10s %12s %8s %6s %6s %12s %8s %8s\n", "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)")
	var sum float64
	for _, r := range rs {
		ch := "-"
		if r.Channels > 0 {
			ch = strconv.Itoa(r.Channels)
		}
		proto := r.Protocol
		if proto == "" {
			proto = "-"
		}
		fmt.Fprintf(w, "  %10d %12d %8s %6s %6d %12.2f %8.2f %8.2f  %-10s %-6s %8s %s\n",
			r.Bytes, r.Count, r.Type, r.Redop, -1, r.TimeS*1e6, r.AlgBW, r.BusBW, r.Algorithm, proto, ch, r.Fidelity)
		sum += r.BusBW
	}
	for _, r := range rs {
		if r.Why != "" {
			fmt.Fprintf(w, "# auto at %d B: %s\n", r.Bytes, r.Why)
		}
	}
	if len(rs) > 0 {
		fmt.Fprintf(w, "# Avg bus bandwidth    : %.4g\n", sum/float64(len(rs)))
	}
}
