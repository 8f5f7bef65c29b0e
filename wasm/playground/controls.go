package playground

import (
	"regexp"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/workload"
)

// Control is one form control of the playground, made from a row of the
// scenario's field table (scenario.Params). The page renders it as a
// labelled <select>, <input type=number> or <input type=text>.
type Control struct {
	// Name is the URL parameter and the control's name, e.g. "bw".
	Name string `json:"name"`
	// Key is the scenario key, e.g. "link.bandwidth".
	Key string `json:"key"`
	// Label is what the page writes beside the control.
	Label string `json:"label"`
	// Group is the fieldset, the key's first part: "link", "cluster", ...
	Group string `json:"group"`
	// Kind is "select", "number" or "text".
	Kind string `json:"kind"`
	// Options are a select's values; an empty value means "the default".
	Options []Option `json:"options,omitempty"`
	// Min, Max and Step bound a number.
	Min  *float64 `json:"min,omitempty"`
	Max  *float64 `json:"max,omitempty"`
	Step float64  `json:"step,omitempty"`
	// Value is the scenario's current value.
	Value string `json:"value"`
	// Help says what a value looks like (a text input's placeholder).
	Help string `json:"help"`
	// Inactive says the value does not matter with the other settings
	// (link bandwidth once a GPU preset gives real links).
	Inactive bool `json:"inactive,omitempty"`
}

// Option is one choice of a select.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label"`
	// Sets is a query the page applies over the form's when this option
	// is picked (an empty value drops the key): what keeps the scenario
	// whole after the pick, such as a slice shape for a TPU (switchSets).
	Sets string `json:"sets,omitempty"`
}

// labels name the controls in words; a field missing here is labelled by
// its key, so a new field still gets a working control.
var labels = map[string]string{
	"name": "Title", "strategy": "Strategy", "gpus": "GPUs", "bw": "Link bandwidth",
	"lat": "Link latency α", "fwd": "Forward", "bwd": "Backward", "jitter": "Jitter ±",
	"gpu": "GPU or TPU preset", "nodes": "Nodes", "gpus_per_node": "GPUs per node",
	"link": "Intra-node link", "inter": "Inter-node link", "network": "Network",
	"op": "Operation", "algo": "Algorithm", "size": "Buffer size S", "chunks": "Chunks", "seed": "Seed",
	"fidelity": "Fidelity", "model": "Model preset", "dp": "Data parallel (dp)", "tp": "Tensor parallel (tp)",
	"pp": "Pipeline stages (pp)", "cp": "Context parallel (cp)", "ep": "Expert parallel (ep)", "zero": "ZeRO stage",
	"schedule": "Pipeline schedule", "tf": "Synthetic forward", "tb": "Synthetic backward (input)",
	"tw":         "Synthetic backward (weight)",
	"split_mode": "Split or federated", "split_model": "Split model", "clients": "Clients", "device": "Client device",
	"cut": "Layers on each client (cut)", "hops": "Compute nodes (hops)", "compute_gpu": "Compute node GPU",
	"batch": "Samples per client", "uplink": "Client uplink", "downlink": "Client downlink",
	"client_lat": "Client latency α", "client_speeds": "Client speeds", "speed_cv": "Client speed spread (cv)",
	"topology": "TPU slice", "slices": "Slices over DCN", "twisted": "Twisted torus", "wraparound": "Wraparound links",
	"mesh_data": "Mesh axis data", "mesh_fsdp": "Mesh axis fsdp", "mesh_seq": "Mesh axis seq", "mesh_model": "Mesh axis model",
	"mesh_layout": "Torus axes, model first",
}

// labelOf names a field missing from labels by the last part of its key:
// "parallel.micro_batch_size" → "Micro batch size".
func labelOf(p scenario.Param) string {
	if l := labels[p.Name]; l != "" {
		return l
	}
	k := p.Key[strings.LastIndexByte(p.Key, '.')+1:]
	k = strings.ReplaceAll(k, "_", " ")
	if k == "" {
		return p.Name
	}
	return strings.ToUpper(k[:1]) + k[1:]
}

// enumRE matches a help text that lists the allowed values, such as
// "bf16 or fp16" or "gpipe, 1f1b, interleaved or zb-v".
var enumRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*((, | or )[a-z0-9][a-z0-9-]*)+$`)

// enumHelp returns the values a help text lists, or nil.
func enumHelp(help string) []string {
	if !enumRE.MatchString(help) {
		return nil
	}
	return strings.FieldsFunc(strings.ReplaceAll(help, " or ", ","), func(r rune) bool { return r == ',' || r == ' ' })
}

func num(f float64) *float64 { return &f }

// optionalGroups are the shared sections only some strategies read (see
// scenario.Keys.Uses): for the others their controls are greyed out.
var optionalGroups = map[string]bool{"sync": true, "compression": true}

// Controls builds the form for s from the field table, in its order. Enums
// become selects (the algorithm's list follows the operation through
// collective.Algorithms; GPU and link presets come from package hw), counts
// become numbers with the scenario's limits, and everything else a text
// input with the table's help as placeholder.
func Controls(s scenario.Scenario) []Control {
	vals := s.Values()
	var out []Control
	for _, p := range scenario.Params() {
		c := Control{Name: p.Name, Key: p.Key, Label: labelOf(p), Kind: "text", Value: vals.Get(p.Name), Help: p.Help, Group: "run"}
		if i := strings.IndexByte(p.Key, '.'); i > 0 {
			c.Group = p.Key[:i]
		}
		if strings.HasPrefix(p.Key, "parallel.mesh.") {
			c.Group = "mesh" // a TPU slice's mesh, a fieldset of its own
		}
		shape(&c, s)
		out = append(out, c)
	}
	return out
}

// shape specialises a control by its parameter, or failing that by what
// its help text says: "a whole number" is a number, a list of words a
// select. A new field of the table thus gets a fitting control unasked.
func shape(c *Control, s scenario.Scenario) {
	switch vs := enumHelp(c.Help); {
	case strings.HasPrefix(c.Help, "a whole number"):
		c.number(0, 1e9, 1)
	case strings.HasPrefix(c.Help, "a fraction"):
		c.number(0, 1, 0.05)
	case vs != nil:
		c.choose(vs...)
	}
	if !c.choosePresets(s) {
		c.shapeByName(s)
	}
	c.sliceMarks(s)
	if optionalGroups[c.Group] {
		c.Inactive = !s.Uses(c.Key)
	}
	if s.Ignores(c.Key) {
		c.Inactive = true
	}
	// A select must offer the current value, even one the lists lack (a
	// bad URL, or a value the help text does not list), so the form shows
	// what the address says; an error marks it when it is wrong.
	if c.Kind == "select" && !hasOption(c.Options, c.Value) {
		c.Options = append(c.Options, Option{Value: c.Value, Label: c.Value})
	}
}

// number makes c a number input from lo to hi in steps of step.
func (c *Control) number(lo, hi, step float64) {
	c.Kind, c.Min, c.Max, c.Step = "number", num(lo), num(hi), step
}

// choose makes c a select and adds the values vs to its options.
func (c *Control) choose(vs ...string) {
	c.Kind = "select"
	for _, v := range vs {
		c.Options = append(c.Options, Option{Value: v, Label: v})
	}
}

// choosePresets makes the controls that pick a strategy, a preset or a
// collective selects of the known names; false for other controls.
func (c *Control) choosePresets(s scenario.Scenario) bool {
	cluster := servers(s)
	switch c.Name {
	case "strategy":
		c.Options = nil
		c.choose(scenario.Strategies()...)
	case "model":
		c.choose("")
		c.Options[0].Label = "none (synthetic times)"
		for _, m := range workload.Models() {
			c.Options = append(c.Options, Option{Value: m.Name, Label: m.Name})
		}
	case "device":
		for _, d := range hw.Devices() {
			c.choose(d.Name)
		}
	case "compute_gpu":
		for _, g := range hw.GPUs() {
			c.choose(g.Name)
		}
	case "op":
		c.choose(collective.Ops()...)
	case "algo":
		c.choose(s.Algorithms()...)
	case "gpu":
		c.choose("")
		c.Options[0].Label = "none: ideal links"
		for _, g := range hw.GPUs() {
			o := Option{Value: g.Name, Label: g.Name}
			if shapes, _ := shapesFor(g.Name); shapes != nil {
				o.Label, o.Sets = g.Name+" (TPU slice)", tpuSets(s, shapes, g.Name)
			}
			c.Options = append(c.Options, o)
		}
	case "topology":
		c.chooseSlices(s)
	case "mesh_data", "mesh_fsdp", "mesh_seq", "mesh_model", "mesh_layout":
		c.chooseMesh(s)
	case "link", "inter":
		c.choose("")
		c.Options[0].Label = "default"
		for _, l := range hw.Links() {
			c.Options = append(c.Options, Option{Value: l.Name, Label: l.Name})
		}
		c.Inactive = !cluster
	default:
		return false
	}
	return true
}

// shapeByName bounds the numbers of the cluster and the collective by
// the scenario's limits, and marks what the other settings make moot.
func (c *Control) shapeByName(s scenario.Scenario) {
	cluster := servers(s)
	switch c.Name {
	case "network":
		c.Options = []Option{{Value: "", Label: "default"}}
		c.choose(enumHelp(c.Help)...)
		c.Inactive = !cluster
	case "gpus":
		_, keys, _ := scenario.KindOf(s.Strategy)
		lo, _ := keys.GPURange() // one GPU for training, data parallelism, serving
		c.number(float64(lo), scenario.MaxGPUs, 1)
		c.Inactive = s.Cluster.GPUsPerNode > 0 || s.Cluster.Topology != ""
	case "nodes":
		c.number(0, scenario.MaxNodes, 1)
		c.Inactive = !cluster
	case "gpus_per_node":
		c.number(0, scenario.MaxPerNode, 1)
		c.Inactive = s.Cluster.Topology != ""
	case "chunks":
		c.number(1, scenario.MaxChunks, 1)
	case "seed":
		c.number(0, 1e9, 1)
	case "jitter":
		c.number(0, 0.9, 0.05)
	case "bw", "lat":
		c.Inactive = s.Cluster.GPU != ""
	}
}

func hasOption(os []Option, v string) bool {
	for _, o := range os {
		if o.Value == v {
			return true
		}
	}
	return false
}
