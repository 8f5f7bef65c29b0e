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
	"text/tabwriter"

	"paraplay/sim/hw"
	"paraplay/sim/workload"
)

// presetsCommand prints the hardware catalog: what a scenario can name as a
// GPU or a link, with every number's source, so that users can check the
// simulator's inputs against their own hardware.
func presetsCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("paraplay presets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the catalog as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "paraplay presets: unexpected argument %q\n\n%s", fs.Arg(0), usage)
		return exitUsage
	}
	var err error
	if *asJSON {
		err = writePresetsJSON(stdout)
	} else {
		err = writePresetsText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "paraplay: %v\n", err)
		return exitError
	}
	return 0
}

// presetLink adds the derived effective bandwidth to a link for JSON
// readers, who should not have to multiply.
type presetLink struct {
	hw.Link
	// Effective is LineRate × Achievable, in bytes per second.
	Effective float64 `json:"effective_bytes_per_s"`
}

// presetCatalog is the JSON form of `paraplay presets`.
type presetCatalog struct {
	// GPUs is the accelerator catalog, sorted by name.
	GPUs []hw.GPU `json:"gpus"`
	// Links is the link catalog, sorted by name.
	Links []presetLink `json:"links"`
	// Models is the model catalog.
	Models []presetModel `json:"models"`
	// Devices is the client-device catalog of split and federated
	// learning.
	Devices []hw.Device `json:"devices"`
	// Pods is how each TPU generation's chips are wired.
	Pods []hw.Pod `json:"tpu_pods"`
}

// presetModel adds the exact parameter count to a model for JSON readers.
type presetModel struct {
	workload.Model
	// Params is the exact parameter count of the architecture.
	Params int64 `json:"params"`
}

func writePresetsJSON(w io.Writer) error {
	cat := presetCatalog{GPUs: hw.GPUs(), Devices: hw.Devices(), Pods: hw.Pods()}
	for _, m := range workload.Models() {
		cat.Models = append(cat.Models, presetModel{Model: m, Params: workload.Params(m).Total()})
	}
	for _, l := range hw.Links() {
		cat.Links = append(cat.Links, presetLink{Link: l, Effective: float64(l.Effective())})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(cat)
}

func writePresetsText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Accelerators")
	fmt.Fprintln(tw, "NAME\tVENDOR\tPEAK TFLOP/s\tPREC\tFP8 TFLOP/s\tHBM GiB\tHBM TB/s\tEFFICIENCY*\tLINK\tPER NODE")
	for _, g := range hw.GPUs() {
		fp8 := "-"
		if g.HasFP8() {
			fp8 = num(g.PeakFP8 / 1e12)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%d\n", g.Name, g.Vendor, num(g.PeakFLOPS/1e12), g.Precision, fp8,
			num(float64(g.HBM)/(1<<30)), num(float64(g.HBMBandwidth)/1e12), g.Efficiency, g.Link, g.GPUsPerNode)
	}
	fmt.Fprintln(tw, "Peaks are dense (no 2:4 sparsity); FP8 (- = none) is what training.precision: fp8 runs the linear layers at.")
	fmt.Fprintln(tw, "* assumed fraction of peak for large transformer matmuls; set your own in the scenario.")
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "Client devices (split.device; fp32)")
	fmt.Fprintln(tw, "NAME\tKIND\tPEAK GFLOP/s\tRAM GiB\tEFFICIENCY†")
	for _, d := range hw.Devices() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\n", d.Name, d.Kind, num(d.PeakFLOPS/1e9), num(float64(d.Memory)/(1<<30)), d.Efficiency)
	}
	fmt.Fprintln(tw, "† assumed fraction of peak for training on the device; the sources below say where each number comes from.")
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "Links (rates per GPU, per direction)")
	fmt.Fprintln(tw, "NAME\tKIND\tLINE GB/s\tACHIEVABLE\tEFFECTIVE GB/s\tLATENCY")
	for _, l := range hw.Links() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.0f%%\t%s\t%v\n", l.Name, l.Kind, num(float64(l.LineRate)/1e9),
			l.Achievable*100, num(float64(l.Effective())/1e9), l.Latency)
	}
	fmt.Fprintln(tw)
	writePods(tw)
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "Calibration (ring all-reduce busbw for large messages: model = effective bandwidth)")
	for _, l := range hw.Links() {
		if l.MeasuredBusBW == 0 {
			continue
		}
		model, measured := float64(l.Effective())/1e9, float64(l.MeasuredBusBW)/1e9
		fmt.Fprintf(tw, "%s\tmodel %s GB/s\tmeasured %s GB/s\t%+.1f%%\n", l.Name, num(model), num(measured), (model/measured-1)*100)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "Models (model.preset)")
	fmt.Fprintln(tw, "NAME\tPARAMS\tACTIVE\tLAYERS\tHIDDEN\tHEADS\tKV HEADS\tFFN\tVOCAB\tSEQ\tEXPERTS")
	for _, m := range workload.Models() {
		experts, kv := "-", fmt.Sprint(m.KVHeadCount())
		if m.IsMoE() {
			x := m.MoE
			experts = fmt.Sprintf("%d (top %d) × %d", x.Experts, x.TopK, m.ExpertWidth())
			if x.SharedExperts > 0 {
				experts += fmt.Sprintf(" + %d shared", x.SharedExperts)
			}
			if x.DenseLayers > 0 {
				experts += fmt.Sprintf(", %d dense", x.DenseLayers)
			}
		}
		if m.IsMLA() {
			kv = fmt.Sprintf("MLA %d", m.MLA.KVLoRARank)
		}
		fmt.Fprintf(tw, "%s\t%.2fB\t%.2fB\t%d\t%d\t%d\t%s\t%s %d\t%d\t%d\t%s\n", m.Name, float64(workload.Params(m).Total())/1e9,
			float64(workload.ActiveParams(m))/1e9, m.Layers, m.Hidden, m.Heads, kv, m.FFN, m.FFNWidth(), m.Vocab, m.SeqLen, experts)
	}
	fmt.Fprintln(tw, "ACTIVE counts the parameters one token uses, input embedding included (DeepSeek and OpenAI publish theirs without it).")
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeSources(w)
}

// writeSources prints, for every preset, where each of its numbers comes
// from; long citations are not tabulated, so they stay readable.
func writeSources(w io.Writer) error {
	var b strings.Builder
	b.WriteString("\nSources\n")
	for _, g := range hw.GPUs() {
		fmt.Fprintf(&b, "%s: %s\n  peak, memory: %s\n  efficiency: %s\n  server: %s\n", g.Name, g.DisplayName, g.Source, g.EfficiencyBasis, g.Server)
	}
	for _, d := range hw.Devices() {
		fmt.Fprintf(&b, "%s: %s\n  peak, memory: %s\n  efficiency: %s\n", d.Name, d.DisplayName, d.Source, d.Basis)
	}
	for _, m := range workload.Models() {
		fmt.Fprintf(&b, "%s: %s\n", m.Name, m.Source)
	}
	for _, p := range hw.Pods() {
		fmt.Fprintf(&b, "%s pod: %s\n", p.TPU, p.Source)
	}
	for _, l := range hw.Links() {
		fmt.Fprintf(&b, "%s: %s\n  line rate: %s\n  achievable: %s\n  latency: %s\n", l.Name, l.DisplayName, l.Source, l.AchievableBasis, l.LatencyBasis)
		if l.MeasuredSource != "" {
			fmt.Fprintf(&b, "  measured busbw: %s\n", l.MeasuredSource)
		}
		if l.MeshPeers > 0 {
			fmt.Fprintf(&b, "  mesh: no switch; one cable to each of %d peers, %s GB/s each way\n", l.MeshPeers, num(float64(l.PeerRate())/1e9))
		}
		if l.SHARP {
			fmt.Fprintf(&b, "  in-network reduction (SHARP, --algo collnet): %s\n", hw.SHARPSource)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// num prints a quantity short and exact enough for the catalog: two
// decimals at most from 1 up ("1307.4", "15.75", "231"), three significant
// digits below 1 ("0.0125").
func num(v float64) string {
	if v < 1 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

// writePods tabulates the TPU pods: their torus, wraparound rule, hosts
// and the host's PCIe and data-centre network.
func writePods(tw io.Writer) {
	fmt.Fprintln(tw, "TPU pods (cluster.topology, cluster.slices)")
	fmt.Fprintln(tw, "TPU\tTORUS\tLARGEST\tCHIPS\tWRAPAROUND\tHOST\tPCIe GB/s/chip\tDCN GB/s/host")
	for _, p := range hw.Pods() {
		wrap := fmt.Sprintf("axis of %d", p.Wrap)
		if p.Cube > 0 {
			wrap = fmt.Sprintf("whole %dx%dx%d cubes (OCS)", p.Cube, p.Cube, p.Cube)
		}
		max, host := fmt.Sprintf("%dx%dx%d", p.Max[0], p.Max[1], p.Max[2]), fmt.Sprintf("%dx%dx%d", p.Host[0], p.Host[1], p.Host[2])
		if p.Dims == 2 {
			max, host = fmt.Sprintf("%dx%d", p.Max[0], p.Max[1]), fmt.Sprintf("%dx%d", p.Host[0], p.Host[1])
		}
		fmt.Fprintf(tw, "%s\t%dD\t%s\t%d\t%s\t%s\t%s\t%s\n", p.TPU, p.Dims, max, p.Chips, wrap, host,
			num(float64(p.PCIe)/1e9), num(float64(p.DCN)/1e9))
	}
}
