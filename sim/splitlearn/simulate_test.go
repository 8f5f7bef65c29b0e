package splitlearn

import (
	"errors"
	"strings"
	"testing"

	"paraplay/sim/units"
)

// xfer is the α–β time of one uncontended message: α + bytes / rate,
// rounded once.
func xfer(alpha units.Time, b units.Bytes, bw units.Bandwidth) units.Time {
	return alpha + units.Round(float64(b)/float64(bw))
}

// TestSplitRoundClosedForm: a round of split learning takes the slowest
// client's forward and upload, plus the server side (every node's forward
// and backward and the activations and gradients between them), plus the
// slowest download and backward:
//
//	T = max_i(F_i + U_i) + Σ_k (f_k + b_k) + Σ_{k<h−1} 2·H_k + max_i(D_i + B_i)
func TestSplitRoundClosedForm(t *testing.T) {
	for _, tc := range []struct {
		name    string
		clients int
		hops    int
		speeds  []float64
		rounds  int
	}{
		{"one-hop", 4, 1, nil, 1},
		{"four hops", 4, 4, nil, 1},
		{"slow client", 4, 2, []float64{1, 1, 0.25, 1}, 2},
		{"many clients, drawn speeds", 32, 3, DrawSpeeds(32, 0.5, 7), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(t, ModeSplit, tc.clients, tc.hops)
			c.Speeds, c.Rounds = tc.speeds, tc.rounds
			p, rounds := simulate(t, c)
			var up, down units.Time
			for i := range c.Devices {
				up = max(up, p.Forward[i]+xfer(c.ClientLatency, p.Up, c.Uplink))
				down = max(down, xfer(c.ClientLatency, p.Down, c.Downlink)+p.Backward[i])
			}
			server := units.Time(0)
			for k := range p.Nodes {
				server += p.NodeForward[k] + p.NodeBackward[k]
			}
			for _, b := range p.Hop {
				server += 2 * xfer(c.HopLatency, b, c.HopBandwidth)
			}
			want := up + server + down
			for k, r := range rounds {
				got := r.End - r.Start
				// Each message's finish is rounded once by the network.
				if d := got - want; d < -4 || d > 4 {
					t.Errorf("round %d = %v, closed form %v (diff %v)", k, got, want, d)
				}
			}
			if tc.speeds != nil {
				slowest := 0
				for i, v := range tc.speeds {
					if v < tc.speeds[slowest] {
						slowest = i
					}
				}
				if rounds[0].Slowest != slowest {
					t.Errorf("slowest client = %d, want %d (speed %v)", rounds[0].Slowest, slowest, tc.speeds[slowest])
				}
			}
		})
	}
}

// TestFedAvgRoundClosedForm: a round of federated averaging is
// max_i(D_i + L·(F_i + B_i) + U_i): the model down, L local steps, the
// weights up, every client on its own links.
func TestFedAvgRoundClosedForm(t *testing.T) {
	c := config(t, ModeFedAvg, 6, 1)
	c.Speeds = []float64{1, 0.5, 2, 1, 0.3, 1}
	c.LocalSteps, c.Rounds = 3, 2
	p, rounds := simulate(t, c)
	var want units.Time
	for i := range c.Devices {
		local := units.Time(c.LocalSteps) * (p.Forward[i] + p.Backward[i])
		want = max(want, xfer(c.ClientLatency, p.Down, c.Downlink)+local+xfer(c.ClientLatency, p.Up, c.Uplink))
	}
	for k, r := range rounds {
		if d := r.End - r.Start - want; d < -2 || d > 2 {
			t.Errorf("round %d = %v, closed form %v", k, r.End-r.Start, want)
		}
		if r.Slowest != 4 {
			t.Errorf("round %d: slowest client %d, want 4 (speed 0.3)", k, r.Slowest)
		}
	}
	// The model goes both ways: VGG-19 (CIFAR) in fp32.
	if want := units.Bytes(4 * c.Model.Params()); p.Up != want {
		t.Errorf("upload %v, want the fp32 model %v", p.Up, want)
	}
}

// TestPlanTermsByHand recomputes one client's forward and one upload from
// the architecture, not from the layer table: conv1_1 (3→64) and conv1_2
// (64→64) on 32×32, 2 FLOPs per multiply-add, 16 samples, on a phone of 1
// TFLOP/s at efficiency 0.2; the upload is 64 channels of 16×16 after the
// pool, fp32.
func TestPlanTermsByHand(t *testing.T) {
	c := config(t, ModeSplit, 1, 1)
	p := NewPlan(c)
	flops := 2.0 * 9 * (3*64 + 64*64) * 32 * 32 * 16
	if got, want := p.Forward[0], units.Round(flops/(1e12*0.2)); got != want {
		t.Errorf("client forward %v, want %v", got, want)
	}
	if got, want := p.Backward[0], units.Round(2*flops/(1e12*0.2)); got != want {
		t.Errorf("client backward %v, want %v", got, want)
	}
	if got, want := p.Up, units.Bytes(4*64*16*16*16); got != want {
		t.Errorf("upload %v, want %v", got, want)
	}
}

// vggCIFARLayers is VGG-19 (CIFAR-10) written out by hand for the memory
// test: per layer its parameters, its input elements and what it keeps
// (its output before pooling), per sample.
func vggCIFARLayers() (params, in, stored []int64) {
	type conv struct{ cin, cout, side int }
	convs := []conv{{3, 64, 32}, {64, 64, 32}, {64, 128, 16}, {128, 128, 16},
		{128, 256, 8}, {256, 256, 8}, {256, 256, 8}, {256, 256, 8},
		{256, 512, 4}, {512, 512, 4}, {512, 512, 4}, {512, 512, 4},
		{512, 512, 2}, {512, 512, 2}, {512, 512, 2}, {512, 512, 2}}
	for _, c := range convs {
		params = append(params, int64(9*c.cin*c.cout+c.cout))
		in = append(in, int64(c.cin*c.side*c.side))
		stored = append(stored, int64(c.cout*c.side*c.side))
	}
	params, in, stored = append(params, 512*10+10), append(in, 512), append(stored, 10)
	return params, in, stored
}

// TestMultiHopLowersPerNodeMemory is MP-SL's point: spreading the server
// side over a chain lowers what each compute node must hold. Each node's
// memory is recomputed here from the architecture (16 bytes per parameter;
// 4 bytes per element of its input and of each layer's kept output, for
// every client's batch) and must match the simulator's, and the largest
// node of four hops must need well under the one-hop node.
//
// Figures (100 clients × 32 samples of VGG-19 on CIFAR-10, cut after
// conv1_2): one hop 2.54 GiB; four hops at most 0.91 GiB per node, 64%
// less.
func TestMultiHopLowersPerNodeMemory(t *testing.T) {
	params, in, stored := vggCIFARLayers()
	peak := map[int]units.Bytes{}
	for _, hops := range []int{1, 2, 4} {
		c := config(t, ModeSplit, 100, hops)
		c.Batch = 32
		tl, err := Simulate(c)
		if err != nil {
			t.Fatal(err)
		}
		samples := int64(100 * 32)
		for k, g := range tl.Split.Compute {
			r := tl.Split.NodeLayers[k]
			var p, e int64
			for l := r[0]; l < r[1]; l++ {
				p += params[l]
				e += stored[l]
			}
			e += in[r[0]]
			want := units.Bytes(16*p + 4*samples*e)
			if got := tl.Memory[g].Peak; got != want {
				t.Errorf("%d hops, node %d (layers %v): peak %v, want %v", hops, k, r, got, want)
			}
			peak[hops] = max(peak[hops], want)
		}
	}
	gib := func(b units.Bytes) float64 { return float64(b) / float64(units.GiB) }
	if !(peak[2] < peak[1] && peak[4] < peak[2]) {
		t.Errorf("largest node: 1 hop %.2f GiB, 2 hops %.2f, 4 hops %.2f; want each smaller", gib(peak[1]), gib(peak[2]), gib(peak[4]))
	}
	if cut := 1 - float64(peak[4])/float64(peak[1]); cut < 0.6 {
		t.Errorf("four hops save %.0f%% per node, want at least 60%%", 100*cut)
	}
	t.Logf("per compute node: one hop %.2f GiB, two hops %.2f GiB, four hops %.2f GiB", gib(peak[1]), gib(peak[2]), gib(peak[4]))
}

// TestPartitionIsOptimal compares the dynamic programme with every way of
// cutting the layers after conv1_2 into three ranges.
func TestPartitionIsOptimal(t *testing.T) {
	c := config(t, ModeSplit, 8, 3)
	m, n := c.Model, 8*c.Batch
	got := Partition(m, 2, 3, n)
	worst := func(r [][2]int) units.Bytes {
		var w units.Bytes
		for _, x := range r {
			w = max(w, Memory(m, x[0], x[1], n).Total())
		}
		return w
	}
	L := len(m.Layers)
	best := worst(got)
	for a := 3; a < L; a++ {
		for b := a + 1; b < L; b++ {
			if w := worst([][2]int{{2, a}, {a, b}, {b, L}}); w < best {
				t.Errorf("cut at %d, %d needs %v at most, better than the partition %v (%v)", a, b, w, got, best)
			}
		}
	}
}

func TestValidateNamesFields(t *testing.T) {
	c := config(t, ModeSplit, 2, 20)
	c.Batch, c.Uplink, c.Speeds = 0, 1, []float64{1}
	err := c.Validate()
	for _, f := range []string{"hops", "cut", "batch", "uplink", "speeds"} {
		var fe *FieldError
		found := false
		for _, e := range flatten(err) {
			if errors.As(e, &fe) && fe.Field == f {
				found = true
			}
		}
		if !found {
			t.Errorf("no error names %s in %v", f, err)
		}
	}
	c = config(t, "carrier-pigeon", 2, 1)
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "mode") {
		t.Errorf("error %v should name mode", err)
	}
}

func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func TestDeterministic(t *testing.T) {
	c := config(t, ModeSplit, 5, 2)
	c.Speeds = DrawSpeeds(5, 0.4, 3)
	a, _ := Simulate(c)
	b, _ := Simulate(c)
	if a.End != b.End || a.Transfers.Len() != b.Transfers.Len() {
		t.Errorf("two runs differ: %v vs %v", a.End, b.End)
	}
	if s := DrawSpeeds(5, 0.4, 3); s[0] != c.Speeds[0] {
		t.Error("DrawSpeeds is not deterministic")
	}
}

func BenchmarkSplit100Clients(b *testing.B) {
	c := config(b, ModeSplit, 100, 4)
	c.Rounds = 4
	for b.Loop() {
		if _, err := Simulate(c); err != nil {
			b.Fatal(err)
		}
	}
}
