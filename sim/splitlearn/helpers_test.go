package splitlearn

import (
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// config is a small run: clients phones training VGG-19 on CIFAR-10
// against T4 compute nodes, over 20 Mb/s uplinks.
func config(t testing.TB, mode string, clients, hops int) Config {
	t.Helper()
	m, err := LookupModel("vgg19-cifar")
	if err != nil {
		t.Fatal(err)
	}
	phone, _ := hw.LookupDevice("phone")
	gpu, _ := hw.LookupGPU("t4")
	c := Config{Title: "test", Mode: mode, Model: m, Cut: 2, Hops: hops, Compute: gpu, Batch: 16, Rounds: 1, LocalSteps: 1,
		Uplink: 20 * units.Gbps / 1000, Downlink: 100 * units.Gbps / 1000, ClientLatency: 20 * units.Millisecond,
		ServerBandwidth: 100 * units.Gbps, HopBandwidth: 10 * units.Gbps, HopLatency: 100 * units.Microsecond}
	for i := 0; i < clients; i++ {
		c.Devices = append(c.Devices, phone)
	}
	return c
}

func simulate(t testing.TB, c Config) (*Plan, []Round) {
	t.Helper()
	tl, err := Simulate(c)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlan(c)
	var out []Round
	for _, r := range tl.Split.Rounds {
		out = append(out, Round{r.Start, r.End, r.Slowest})
	}
	return &p, out
}

// Round is a round's bounds and slowest client, for comparisons.
type Round struct {
	Start, End units.Time
	Slowest    int
}
