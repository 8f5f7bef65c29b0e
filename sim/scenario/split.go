package scenario

import (
	"errors"
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/splitlearn"
	"paraplay/sim/units"
)

// StrategySplitLearning: client devices train the first layers of a model
// (or all of it, split.mode fedavg) and compute nodes the rest, for
// iterations rounds (package splitlearn).
const StrategySplitLearning = "split-learning"

// Split configures a split-learning or federated-averaging scenario.
type Split struct {
	// Mode is "split" (split learning) or "fedavg" (federated averaging).
	Mode string `yaml:"mode" json:"mode"`
	// Model is a model preset of package splitlearn: vgg19 (ImageNet) or
	// vgg19-cifar.
	Model string `yaml:"model" json:"model"`
	// Clients is the number of client devices, 1..splitlearn.MaxClients.
	Clients int `yaml:"clients" json:"clients"`
	// Device is the clients' device preset (hw.Devices), e.g. "phone".
	Device string `yaml:"device" json:"device"`
	// Cut is the layers each client runs (split learning), 1..layers−hops.
	Cut int `yaml:"cut" json:"cut"`
	// Hops is the compute nodes the server side is split over,
	// 1..splitlearn.MaxHops: 1 is one-hop, more is MP-SL's multi-hop.
	Hops int `yaml:"hops" json:"hops"`
	// ComputeGPU is the compute nodes' accelerator preset, e.g. "t4".
	ComputeGPU string `yaml:"compute_gpu" json:"compute_gpu"`
	// Batch is each client's samples per round (per local step for
	// fedavg), 1..splitlearn.MaxBatch.
	Batch int `yaml:"batch" json:"batch"`
	// LocalSteps is fedavg's local steps per round, 1..splitlearn.MaxLocalSteps.
	LocalSteps int `yaml:"local_steps" json:"local_steps"`
	// Uplink and Downlink are each client's access link rates, e.g. 20Mbps.
	Uplink   units.Bandwidth `yaml:"uplink" json:"uplink"`
	Downlink units.Bandwidth `yaml:"downlink" json:"downlink"`
	// ClientLatency is α of a client's link, each way, 0..10s.
	ClientLatency units.Time `yaml:"client_latency" json:"client_latency"`
	// ServerBandwidth is compute node 0's port on the internet.
	ServerBandwidth units.Bandwidth `yaml:"server_bandwidth" json:"server_bandwidth"`
	// HopBandwidth and HopLatency are the links between compute nodes.
	HopBandwidth units.Bandwidth `yaml:"hop_bandwidth" json:"hop_bandwidth"`
	HopLatency   units.Time      `yaml:"hop_latency" json:"hop_latency"`
	// Speeds gives each client's speed factor (its FLOP/s × speed), one
	// per client, e.g. "1,1,0.25"; empty means SpeedCV decides.
	Speeds []float64 `yaml:"speeds" json:"speeds"`
	// SpeedCV, 0..2, draws the clients' speed factors from a lognormal of
	// mean 1 and this coefficient of variation, from the scenario's seed,
	// when Speeds is empty; 0 means all 1.
	SpeedCV float64 `yaml:"speed_cv" json:"speed_cv"`
}

// defaultSplit is the split section of Default: eight phones on 20 Mb/s
// uplinks training VGG-19 (CIFAR-10) with a T4 behind them.
func defaultSplit() Split {
	return Split{Mode: splitlearn.ModeSplit, Model: "vgg19-cifar", Clients: 8, Device: "phone", Cut: 2, Hops: 1,
		ComputeGPU: "t4", Batch: 32, LocalSteps: 1, Uplink: 20 * units.Gbps / 1000, Downlink: 100 * units.Gbps / 1000,
		ClientLatency: 20 * units.Millisecond, ServerBandwidth: 100 * units.Gbps, HopBandwidth: 10 * units.Gbps,
		HopLatency: 100 * units.Microsecond}
}

// SplitConfig is the run package splitlearn simulates for a split-learning
// scenario; it reports an unknown preset as a *FieldError.
func (s *Scenario) SplitConfig() (splitlearn.Config, error) {
	y := s.Split
	var errs []error
	bad := func(field string, err error) { errs = append(errs, &FieldError{Field: field, Msg: err.Error()}) }
	m, err := splitlearn.LookupModel(y.Model)
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
	if y.Clients < 1 || y.Clients > splitlearn.MaxClients {
		errs = append(errs, &FieldError{Field: "split.clients", Msg: fmt.Sprintf("is %d; allowed 1..%d", y.Clients, splitlearn.MaxClients)})
	}
	if !(y.SpeedCV >= 0 && y.SpeedCV <= 2) {
		errs = append(errs, &FieldError{Field: "split.speed_cv", Msg: fmt.Sprintf("is %v; allowed 0..2", y.SpeedCV)})
	}
	if len(errs) > 0 {
		return splitlearn.Config{}, errors.Join(errs...)
	}
	c := splitlearn.Config{Title: s.Title(), Mode: y.Mode, Model: m, Speeds: y.Speeds, Cut: y.Cut, Hops: y.Hops, Compute: g,
		Batch: y.Batch, Rounds: s.Iterations, LocalSteps: y.LocalSteps, Uplink: y.Uplink, Downlink: y.Downlink,
		ClientLatency: y.ClientLatency, ServerBandwidth: y.ServerBandwidth, HopBandwidth: y.HopBandwidth, HopLatency: y.HopLatency}
	for range y.Clients {
		c.Devices = append(c.Devices, d)
	}
	if len(y.Speeds) == 0 && y.SpeedCV > 0 {
		c.Speeds = splitlearn.DrawSpeeds(y.Clients, y.SpeedCV, s.Seed)
	}
	return c, nil
}

// validateSplit checks the split section through splitlearn.Config's own
// Validate, naming each field by its scenario key.
func (s *Scenario) validateSplit(bad func(field, format string, args ...any)) {
	if s.Cluster.GPU != "" {
		bad("cluster.gpu", "is %q; strategy %s builds its own network from the split section, so leave the cluster section empty", s.Cluster.GPU, s.Strategy)
	}
	c, err := s.SplitConfig()
	if err == nil {
		err = c.Validate()
	}
	for _, e := range flatten(err) {
		var fe *FieldError
		var se *splitlearn.FieldError
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

// describeSplit is Describe for a split-learning scenario.
func (s *Scenario) describeSplit() string {
	y := s.Split
	if y.Mode == splitlearn.ModeFedAvg {
		return fmt.Sprintf("federated averaging: %d %s clients train %s, %d local step(s) of %d samples, %d rounds, uplink %v",
			y.Clients, y.Device, y.Model, y.LocalSteps, y.Batch, s.Iterations, y.Uplink)
	}
	return fmt.Sprintf("split learning: %d %s clients run %d layer(s) of %s, %d %s compute node(s) the rest, %d rounds, uplink %v",
		y.Clients, y.Device, y.Cut, y.Model, y.Hops, y.ComputeGPU, s.Iterations, y.Uplink)
}

// splitTitle is Title for a split-learning scenario.
func (s *Scenario) splitTitle() string {
	if s.Split.Mode == splitlearn.ModeFedAvg {
		return fmt.Sprintf("Federated averaging with %d clients", s.Split.Clients)
	}
	if s.Split.Hops == 1 {
		return fmt.Sprintf("Split learning, %d clients, one hop", s.Split.Clients)
	}
	return fmt.Sprintf("Split learning, %d clients, %d hops", s.Split.Clients, s.Split.Hops)
}
