package splitlearn

import (
	"errors"
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// Name is the strategy key's value of split and federated learning:
// client devices train the first layers of a model (or all of it,
// split.mode fedavg) and compute nodes the rest, for iterations rounds.
const Name = "split-learning"

// section is the key of the scenario's split section.
const section = "split"

// Settings is the split section of a scenario: the clients, compute
// nodes and links of a split-learning or federated-averaging run.
type Settings struct {
	// Mode is "split" (split learning) or "fedavg" (federated averaging).
	Mode string
	// Model is a model preset of this package: vgg19 (ImageNet) or
	// vgg19-cifar.
	Model string
	// Clients is the number of client devices, 1..MaxClients.
	Clients int
	// Device is the clients' device preset (hw.Devices), e.g. "phone".
	Device string
	// Cut is the layers each client runs (split learning), 1..layers−hops.
	Cut int
	// Hops is the compute nodes the server side is split over,
	// 1..MaxHops: 1 is one-hop, more is MP-SL's multi-hop.
	Hops int
	// ComputeGPU is the compute nodes' accelerator preset, e.g. "t4".
	ComputeGPU string
	// Batch is each client's samples per round (per local step for
	// fedavg), 1..MaxBatch.
	Batch int
	// LocalSteps is fedavg's local steps per round, 1..MaxLocalSteps.
	LocalSteps int
	// Uplink and Downlink are each client's access link rates, e.g. 20Mbps.
	Uplink, Downlink units.Bandwidth
	// ClientLatency is α of a client's link, each way, 0..10s.
	ClientLatency units.Time
	// ServerBandwidth is compute node 0's port on the internet.
	ServerBandwidth units.Bandwidth
	// HopBandwidth and HopLatency are the links between compute nodes.
	HopBandwidth units.Bandwidth
	HopLatency   units.Time
	// Speeds gives each client's speed factor (its FLOP/s × speed), one
	// per client, e.g. "1,1,0.25"; empty means SpeedCV decides.
	Speeds []float64
	// SpeedCV, 0..2, draws the clients' speed factors from a lognormal of
	// mean 1 and this coefficient of variation, from the scenario's seed,
	// when Speeds is empty; 0 means all 1.
	SpeedCV float64
}

// DefaultSettings is the split section of a default scenario: eight
// phones on 20 Mb/s uplinks training VGG-19 (CIFAR-10) with a T4 behind
// them.
func DefaultSettings() Settings {
	return Settings{Mode: ModeSplit, Model: "vgg19-cifar", Clients: 8, Device: "phone", Cut: 2, Hops: 1,
		ComputeGPU: "t4", Batch: 32, LocalSteps: 1, Uplink: 20 * units.Gbps / 1000, Downlink: 100 * units.Gbps / 1000,
		ClientLatency: 20 * units.Millisecond, ServerBandwidth: 100 * units.Gbps, HopBandwidth: 10 * units.Gbps,
		HopLatency: 100 * units.Microsecond}
}

// SettingsOf is s's split section.
func SettingsOf(s *scenario.Scenario) Settings { return scenario.Get[Settings](s, section) }

// SetSettings stores y as s's split section.
func SetSettings(s *scenario.Scenario, y Settings) { scenario.Put(s, section, y) }

// fields are the split section's rows of the field table, in order.
var rows = []scenario.Row{
	{Key: "mode", Param: "split_mode", Help: "split or fedavg", Field: "Mode"},
	{Key: "model", Param: "split_model", Help: "vgg19 or vgg19-cifar", Field: "Model"},
	{Key: "clients", Param: "clients", Field: "Clients"},
	{Key: "device", Param: "device", Help: "a client device, e.g. phone, laptop, raspberry-pi-5, jetson-orin-nano", Field: "Device"},
	{Key: "cut", Param: "cut", Field: "Cut"},
	{Key: "hops", Param: "hops", Field: "Hops"},
	{Key: "compute_gpu", Param: "compute_gpu", Help: "a GPU preset, e.g. t4", Field: "ComputeGPU"},
	{Key: "batch", Param: "batch", Field: "Batch"},
	{Key: "local_steps", Param: "local_steps", Field: "LocalSteps"},
	{Key: "uplink", Param: "uplink", Help: "e.g. 20Mbps", Field: "Uplink"},
	{Key: "downlink", Param: "downlink", Help: "e.g. 100Mbps", Field: "Downlink"},
	{Key: "client_latency", Param: "client_lat", Field: "ClientLatency"},
	{Key: "server_bandwidth", Param: "server_bw", Help: "e.g. 100Gbps", Field: "ServerBandwidth"},
	{Key: "hop_bandwidth", Param: "hop_bw", Help: "e.g. 10Gbps", Field: "HopBandwidth"},
	{Key: "hop_latency", Param: "hop_lat", Field: "HopLatency"},
	{Key: "speeds", Param: "client_speeds", Help: "speed factors, one per client, e.g. 1,1,0.25", Field: "Speeds"},
	{Key: "speed_cv", Param: "speed_cv", Help: "a number 0..2, e.g. 0.5", Field: "SpeedCV"},
}

// Strategy is split and federated learning as a strategy of the
// scenario: its split section, its checks and its names.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the split section.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: section, Default: DefaultSettings(), Rows: rows}}}
}

// FromScenario is the run of a split-learning scenario; it reports an
// unknown preset as a *scenario.FieldError.
func FromScenario(s *scenario.Scenario) (Config, error) {
	y := SettingsOf(s)
	var errs []error
	bad := func(field string, err error) {
		errs = append(errs, &scenario.FieldError{Field: field, Msg: err.Error()})
	}
	m, err := LookupModel(y.Model)
	if err != nil {
		bad("split.model", err)
	}
	d, err := hw.LookupDevice(y.Device)
	if err != nil {
		bad("split.device", err)
	}
	g, err := hw.LookupGPU(y.ComputeGPU)
	if err != nil {
		bad("split.compute_gpu", err)
	}
	if y.Clients < 1 || y.Clients > MaxClients {
		errs = append(errs, &scenario.FieldError{Field: "split.clients", Msg: fmt.Sprintf("is %d; allowed 1..%d", y.Clients, MaxClients)})
	}
	if !(y.SpeedCV >= 0 && y.SpeedCV <= 2) {
		errs = append(errs, &scenario.FieldError{Field: "split.speed_cv", Msg: fmt.Sprintf("is %v; allowed 0..2", y.SpeedCV)})
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	c := Config{Title: s.Title(), Mode: y.Mode, Model: m, Speeds: y.Speeds, Cut: y.Cut, Hops: y.Hops, Compute: g,
		Batch: y.Batch, Rounds: s.Iterations, LocalSteps: y.LocalSteps, Uplink: y.Uplink, Downlink: y.Downlink,
		ClientLatency: y.ClientLatency, ServerBandwidth: y.ServerBandwidth, HopBandwidth: y.HopBandwidth, HopLatency: y.HopLatency}
	for range y.Clients {
		c.Devices = append(c.Devices, d)
	}
	if len(y.Speeds) == 0 && y.SpeedCV > 0 {
		c.Speeds = DrawSpeeds(y.Clients, y.SpeedCV, s.Seed)
	}
	return c, nil
}

// Check checks the split section through Config's own Validate, naming
// each field by its scenario key.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	if s.Cluster.GPU != "" {
		bad("cluster.gpu", "is %q; strategy %s builds its own network from the split section, so leave the cluster section empty", s.Cluster.GPU, s.Strategy)
	}
	c, err := FromScenario(s)
	if err == nil {
		err = c.Validate()
	}
	for _, e := range scenario.Problems(err) {
		var fe *scenario.FieldError
		var se *FieldError
		switch {
		case errors.As(e, &fe):
			bad(fe.Field, "%s", fe.Msg)
		case errors.As(e, &se) && se.Field == "rounds":
			// iterations is checked with the other strategies' keys.
		case errors.As(e, &se):
			bad("split."+se.Field, "%s", se.Msg)
		default:
			bad("split", "%v", e)
		}
	}
}

// Describe is e.g. "split learning: 8 phone clients run 2 layer(s) of
// vgg19-cifar, 1 t4 compute node(s) the rest, 2 rounds, uplink 20Mbps".
func (Strategy) Describe(s *scenario.Scenario) string {
	y := SettingsOf(s)
	if y.Mode == ModeFedAvg {
		return fmt.Sprintf("federated averaging: %d %s clients train %s, %d local step(s) of %d samples, %d rounds, uplink %v",
			y.Clients, y.Device, y.Model, y.LocalSteps, y.Batch, s.Iterations, y.Uplink)
	}
	return fmt.Sprintf("split learning: %d %s clients run %d layer(s) of %s, %d %s compute node(s) the rest, %d rounds, uplink %v",
		y.Clients, y.Device, y.Cut, y.Model, y.Hops, y.ComputeGPU, s.Iterations, y.Uplink)
}

// Title is e.g. "Split learning, 8 clients, one hop".
func (Strategy) Title(s *scenario.Scenario) string {
	y := SettingsOf(s)
	if y.Mode == ModeFedAvg {
		return fmt.Sprintf("Federated averaging with %d clients", y.Clients)
	}
	if y.Hops == 1 {
		return fmt.Sprintf("Split learning, %d clients, one hop", y.Clients)
	}
	return fmt.Sprintf("Split learning, %d clients, %d hops", y.Clients, y.Hops)
}

// Edit changes s's split section in place through f.
func Edit(s *scenario.Scenario, f func(*Settings)) { scenario.Edit(s, section, f) }
