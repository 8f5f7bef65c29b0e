package splitlearn_test

import (
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/splitlearn"
	"paraplay/sim/units"
)

// Twenty phones train VGG-19 on CIFAR-10 with the first two layers on the
// phone; the rest runs on one T4, or on a chain of four.
func ExampleSimulate() {
	model, _ := splitlearn.LookupModel("vgg19-cifar")
	phone, _ := hw.LookupDevice("phone")
	t4, _ := hw.LookupGPU("t4")
	for _, hops := range []int{1, 4} {
		c := splitlearn.Config{Mode: splitlearn.ModeSplit, Model: model, Cut: 2, Hops: hops, Compute: t4,
			Batch: 32, Rounds: 1, LocalSteps: 1,
			Uplink: 20e6 / 8, Downlink: 100e6 / 8, ClientLatency: 20 * units.Millisecond,
			ServerBandwidth: 100 * units.Gbps, HopBandwidth: 10 * units.Gbps, HopLatency: 100 * units.Microsecond}
		for range 20 {
			c.Devices = append(c.Devices, phone)
		}
		tl, err := splitlearn.Simulate(c)
		if err != nil {
			panic(err)
		}
		var most units.Bytes
		for _, g := range tl.Split.Compute {
			most = max(most, tl.Memory[g].Peak)
		}
		fmt.Printf("%d hop(s): round %.3f s, largest compute node %.2f GiB\n", hops, tl.End.Seconds(), float64(most)/float64(units.GiB))
	}
	// Output:
	// 1 hop(s): round 1.155 s, largest compute node 0.75 GiB
	// 4 hop(s): round 1.215 s, largest compute node 0.21 GiB
}
