package training

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/operators"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// sdpScenario is a small GPT-3 1.3B (8 layers, 512 tokens) on dp servers
// of one H100 each over 100 Gb/s Ethernet, with parallel.sdp as given
// ("" for plain data parallelism) and extra YAML lines.
func sdpScenario(t *testing.T, dp int, sdp, extra string) scenario.Scenario {
	t.Helper()
	y := sdpYAML(dp, sdp, extra)
	s, err := scenario.Parse([]byte(y))
	if err != nil {
		t.Fatalf("%s: %v", y, err)
	}
	return s
}

// sdpYAML is sdpScenario's YAML.
func sdpYAML(dp int, sdp, extra string) string {
	return fmt.Sprintf("model: {preset: gpt3-1.3b, layers: 8, seq_len: 512}\ncluster: {gpu: h100-sxm, nodes: %d, gpus_per_node: 1, inter: eth-100g}\n"+
		"parallel: {dp: %d, microbatches: 2, micro_batch_size: 1, sdp: {%s}}\n%s", dp, dp, sdp, extra)
}

// heldBy is the test's own statement of the assignment rule: the number
// of the n slices (of f·n holders each) that worker w holds, and which.
func heldBy(assignment string, n, m, w, s int) bool {
	if assignment == "disjoint" {
		groups := n / m // group g = workers g·m … g·m+m−1 holds slices ≡ g mod groups
		return s%groups == w/m
	}
	for j := 0; j < m; j++ { // cyclic: worker w holds w, w+1, …, w+m−1 mod n
		if (w+j)%n == s {
			return true
		}
	}
	return false
}

// expectedHeld is the parameters worker w holds, from the model's counts:
// the embedding, final norm and head, plus at neuron level the layers'
// norms and f of the rest of every layer, or at block level the whole
// layers b with b mod n a slice it holds.
func expectedHeld(mdl workload.Model, level, assignment string, n, m, w int) float64 {
	p := workload.Params(mdl)
	held := float64(p.Embedding + p.FinalNorm + p.Head)
	if level == "neuron" {
		norms := 2 * float64(p.FinalNorm)
		return held + float64(mdl.Layers)*(norms+float64(m)/float64(n)*(float64(p.PerLayer)-norms))
	}
	for b := 0; b < mdl.Layers; b++ {
		if heldBy(assignment, n, m, w, b%n) {
			held += float64(p.PerLayer)
		}
	}
	return held
}

// savedPerLayer is what one microbatch leaves in one layer on a GPU of a
// tensor-parallel group of t, from the operator list itself.
func savedPerLayer(t *testing.T, mdl workload.Model, tp int) (layer, ends float64) {
	t.Helper()
	cfg := operators.Config{Model: mdl, MicroBatch: 1, TP: tp, CP: 1, Attention: operators.Flash, Causal: true,
		Precision: operators.BF16, Recompute: workload.RecomputeNone, Dropout: true}
	for i, build := range []func(operators.Config) (operators.List, error){operators.Layer, operators.Embedding, operators.Head} {
		l, err := build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			layer = l.Totals().Saved()
		} else {
			ends += l.Totals().Saved()
		}
	}
	return layer, ends
}

// TestSDPMemoryPerWorker holds every worker's memory, for both maskings,
// both levels and both assignments, to the formula of the package doc:
// backward masking 2Ψ + 14·held, every activation; forward masking
// 16·held and the activations of its part (at block level its layers';
// at neuron level each layer's, affine in the units between the whole
// layer and its 1/dp tensor-parallel shard). The peak is the states, the
// reserve and one microbatch's activations (pp 1: one in flight).
func TestSDPMemoryPerWorker(t *testing.T) {
	for _, tc := range []struct {
		masking, level, assignment string
		dp                         int
		f                          float64
	}{
		{"backward", "block", "cyclic", 4, 0.5},
		{"forward", "block", "cyclic", 4, 0.5},
		{"backward", "neuron", "cyclic", 4, 0.5},
		{"forward", "neuron", "cyclic", 4, 0.5},
		{"forward", "neuron", "cyclic", 4, 0.25},
		{"forward", "block", "disjoint", 4, 0.5},
		{"forward", "block", "cyclic", 3, 2.0 / 3}, // 8 layers on 3 workers: 6 or 5 each
		{"backward", "neuron", "disjoint", 8, 0.25},
	} {
		name := fmt.Sprintf("%s/%s/%s/dp%d/f%.2f", tc.masking, tc.level, tc.assignment, tc.dp, tc.f)
		t.Run(name, func(t *testing.T) {
			s := sdpScenario(t, tc.dp, fmt.Sprintf("fraction: %v, masking: %s, level: %s, assignment: %s", tc.f, tc.masking, tc.level, tc.assignment), "")
			mdl, _ := s.Model.Resolve()
			tl := mustSimulate(t, s)
			m := int(math.Round(tc.f * float64(tc.dp)))
			total := float64(workload.Params(mdl).Total())
			layer, ends := savedPerLayer(t, mdl, 1)
			shard := layer
			if tc.level == "neuron" {
				shard, _ = savedPerLayer(t, mdl, tc.dp)
			}
			for _, mem := range tl.Memory {
				w := mem.GPU
				held := expectedHeld(mdl, tc.level, tc.assignment, tc.dp, m, w)
				params, act := 2*total, ends+float64(mdl.Layers)*layer
				if tc.masking == "forward" {
					params = 2 * held
					if tc.level == "block" {
						blocks := 0.0
						for b := 0; b < mdl.Layers; b++ {
							if heldBy(tc.assignment, tc.dp, m, w, b%tc.dp) {
								blocks++
							}
						}
						act = ends + blocks*layer
					} else {
						n := float64(tc.dp)
						act = ends + float64(mdl.Layers)*(layer-(1-tc.f)*(layer-shard)*n/(n-1))
					}
				}
				near := func(what string, got units.Bytes, want float64) {
					if math.Abs(float64(got)-want) > 1 {
						t.Errorf("GPU %d %s %v, want %.0f", w, what, got, want)
					}
				}
				near("parameters", mem.Parameters, params)
				near("gradients", mem.Gradients, 2*held)
				near("optimizer states", mem.OptimizerStates, 12*held)
				wantPeak := float64(mem.Static()) + act
				if math.Abs(float64(mem.Peak)-wantPeak) > 2 {
					t.Errorf("GPU %d peak %v, want states %v + activations %.0f = %.0f", w, mem.Peak, mem.Static(), act, wantPeak)
				}
			}
		})
	}
}

// dpTraffic sums, per GPU, the gradient bytes it contributes to the
// data-parallel and subnetwork sums (each collective's buffer S) and the
// bytes it sends in their messages.
func dpTraffic(tl *timeline.Timeline) (payload, sent map[int]float64) {
	payload, sent = map[int]float64{}, map[int]float64{}
	for _, c := range tl.Collectives {
		if c.Purpose != "dp" && c.Purpose != "sdp" {
			continue
		}
		for _, g := range c.GPUs {
			payload[g] += float64(c.Bytes)
		}
	}
	for i := range tl.Transfers.Len() {
		if x := tl.Transfers.At(i); x.Collective >= 0 && (tl.Collectives[x.Collective].Purpose == "dp" || tl.Collectives[x.Collective].Purpose == "sdp") {
			sent[x.Src] += float64(x.Bytes)
		}
	}
	return payload, sent
}

// TestSDPGradientBytes checks what each worker sends in the gradient
// sums against plain data parallelism's: its gradient payload is f of
// the layers' bytes plus all of the shared parameters' (the embedding,
// final norm, head: every worker holds them), and on the links each ring
// of k workers over S bytes sends 2(k−1)/k·S per worker, summed over the
// groups the worker is in.
func TestSDPGradientBytes(t *testing.T) {
	for _, tc := range []struct {
		sdp string
		f   float64
	}{{"fraction: 0.5", 0.5}, {"fraction: 0.5, level: neuron, masking: forward", 0.5},
		{"fraction: 0.5, assignment: disjoint", 0.5}, {"fraction: 0.75", 0.75},
		{"fraction: 0.25", 0}} { // one holder a slice: nothing to sum but the shared parameters
		t.Run(tc.sdp, func(t *testing.T) {
			full := mustSimulate(t, sdpScenario(t, 4, "", ""))
			s := sdpScenario(t, 4, tc.sdp, "")
			tl := mustSimulate(t, s)
			mdl, _ := s.Model.Resolve()
			p := workload.Params(mdl)
			shared := 2 * float64(p.Embedding+p.FinalNorm+p.Head)
			if SDPOf(&s).Level == "neuron" {
				shared += 2 * float64(int64(mdl.Layers)*2*p.FinalNorm)
			}
			fullPay, _ := dpTraffic(full)
			pay, sent := dpTraffic(tl)
			for w := 0; w < 4; w++ {
				want := shared + tc.f*(fullPay[w]-shared)
				if math.Abs(pay[w]-want) > 64 {
					t.Errorf("worker %d's gradient payload %.0f B, want shared %.0f + f × %.0f = %.0f", w, pay[w], shared, fullPay[w]-shared, want)
				}
			}
			wire := map[int]float64{}
			for _, c := range tl.Collectives {
				if c.Purpose == "dp" || c.Purpose == "sdp" {
					k := float64(len(c.GPUs))
					for _, g := range c.GPUs {
						wire[g] += 2 * (k - 1) / k * float64(c.Bytes)
					}
				}
			}
			for w := 0; w < 4; w++ {
				if math.Abs(sent[w]-wire[w]) > 1e-6*wire[w]+64 {
					t.Errorf("worker %d sent %.0f B of gradients, ring formula %.0f", w, sent[w], wire[w])
				}
			}
		})
	}
}

// TestSDPGroups checks the grouped sums on the links: with the cyclic
// assignment each slice's collective spans exactly the f·dp workers that
// hold it (worker w holds slices w … w+m−1), every slice is held by some
// worker, and the shared parameters' collective spans every worker.
func TestSDPGroups(t *testing.T) {
	for _, assignment := range []string{"cyclic", "disjoint"} {
		s := sdpScenario(t, 8, "fraction: 0.25, assignment: "+assignment, "")
		tl := mustSimulate(t, s)
		sets := map[string]bool{}
		for _, c := range tl.Collectives {
			switch c.Purpose {
			case "sdp":
				if len(c.GPUs) != 2 {
					t.Errorf("%s: a group sum over %v, want 2 workers", assignment, c.GPUs)
				}
				ws := slices.Clone(c.GPUs)
				slices.Sort(ws)
				sets[fmt.Sprint(ws)] = true
			case "dp":
				if len(c.GPUs) != 8 {
					t.Errorf("%s: the shared sum over %v, want every worker", assignment, c.GPUs)
				}
			}
		}
		want := map[string]bool{}
		for sl := 0; sl < 8; sl++ {
			var ws []int
			for w := 0; w < 8; w++ {
				if heldBy(assignment, 8, 2, w, sl) {
					ws = append(ws, w)
				}
			}
			if len(ws) != 2 {
				t.Errorf("%s: slice %d held by %v", assignment, sl, ws)
			}
			want[fmt.Sprint(ws)] = true
		}
		if fmt.Sprint(sets) != fmt.Sprint(want) {
			t.Errorf("%s: group sums over %v, want %v", assignment, sets, want)
		}
	}
}

// TestSDPComputeSaving checks forward masking's compute against the
// FLOPs: each worker computes the embedding and head and f of every
// layer's FLOPs (neuron level) or its own layers' (block level, f·L of
// them here), so the run's model FLOPs fall by (1 − f) of the layers'
// against plain data parallelism's; backward masking saves only (1 − f)
// of the layers' weight-gradient FLOPs. Timed by FLOPs at a fixed
// efficiency, each worker's compute falls by the same.
func TestSDPComputeSaving(t *testing.T) {
	const eff = "training: {efficiency: 0.5}\n"
	full := mustSimulate(t, sdpScenario(t, 4, "", eff))
	for _, tc := range []struct {
		sdp string
		f   float64
		fwd bool
	}{{"fraction: 0.5, masking: forward", 0.5, true}, {"fraction: 0.25, masking: forward, level: neuron", 0.25, true},
		{"fraction: 0.75, masking: forward, level: neuron", 0.75, true}, {"fraction: 0.5, masking: backward", 0.5, false}} {
		s := sdpScenario(t, 4, tc.sdp, eff)
		tl := mustSimulate(t, s)
		mdl, _ := s.Model.Resolve()
		layer := workload.LayerFLOPs(mdl, 1, 1, 1, workload.RecomputeNone).Total()
		masked := layer.Model()
		if !tc.fwd {
			masked = layer.BackwardWeight
		}
		perWorker := float64(mdl.Layers) * masked * 2 // 2 microbatches
		want := full.Training.ModelFLOPs - 4*(1-tc.f)*perWorker
		if got := tl.Training.ModelFLOPs; math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: model FLOPs %.6g, want %.6g (saving (1−f) of the masked layers' %.6g per worker)", tc.sdp, got, want, perWorker)
		}
		gpu := compute(full, 0) - compute(tl, 0)
		h100, _ := hw.LookupGPU("h100-sxm")
		wantT := (1 - tc.f) * perWorker / (h100.PeakFLOPS * 0.5) * 1e9
		if math.Abs(float64(gpu)-wantT) > 1e-6*wantT+100 { // each op is rounded to the ns
			t.Errorf("%s: GPU 0 computes %v less, want %.0f ns", tc.sdp, gpu, wantT)
		}
	}
}

// compute is GPU g's forward and backward compute time.
func compute(tl *timeline.Timeline, g int) units.Time {
	var sum units.Time
	for _, sp := range tl.Spans {
		if sp.GPU == g && (sp.Kind == timeline.Forward || sp.Kind == timeline.Backward || sp.Kind == timeline.BackwardWeight) {
			sum += sp.End - sp.Start
		}
	}
	return sum
}

// TestSDPAnalytic runs the grouped sums as closed forms: the same groups
// and bytes as the detailed run, no messages.
func TestSDPAnalytic(t *testing.T) {
	det := mustSimulate(t, sdpScenario(t, 4, "fraction: 0.5", ""))
	an := mustSimulate(t, sdpScenario(t, 4, "fraction: 0.5", "fidelity: analytic\n"))
	if an.Transfers.Len() != 0 {
		t.Errorf("analytic run sent %d messages", an.Transfers.Len())
	}
	dp, _ := dpTraffic(det)
	ap, _ := dpTraffic(an)
	if fmt.Sprint(dp) != fmt.Sprint(ap) {
		t.Errorf("analytic payloads %v, detailed %v", ap, dp)
	}
	var refresh int
	for _, c := range an.Collectives {
		if c.Purpose == "model" {
			refresh++
		}
	}
	if refresh != 1 {
		t.Errorf("%d weight refreshes in the analytic run, want 1", refresh)
	}
}

// TestSDPRefresh checks backward masking's weight refresh: one closed
// form over every worker, carrying the layers' bf16 weights, whose time
// is α plus the most bytes a worker moves at the bottleneck bandwidth —
// here (cyclic, f = 1/2) each worker receives the half of the layers it
// lacks and sends its own half once; forward masking refreshes nothing.
func TestSDPRefresh(t *testing.T) {
	for _, fid := range []string{"detailed", "analytic"} {
		s := sdpScenario(t, 4, "fraction: 0.5", "fidelity: "+fid+"\n")
		tl := mustSimulate(t, s)
		mdl, _ := s.Model.Resolve()
		per := 2 * float64(workload.Params(mdl).PerLayer)
		topology, _, err := trainingTopology(s)
		if err != nil {
			t.Fatal(err)
		}
		alpha, bw, err := topo.NewPaths(topology).Bottleneck([]int{0, 1, 2, 3})
		if err != nil {
			t.Fatal(err)
		}
		var n int
		for _, c := range tl.Collectives {
			if c.Purpose != "model" {
				continue
			}
			n++
			if want := float64(mdl.Layers) * per; math.Abs(float64(c.Bytes)-want) > 1 {
				t.Errorf("%s: refresh of %v, want the layers' %.0f B", fid, c.Bytes, want)
			}
			want := alpha + bw.TransferTime(units.Bytes(float64(mdl.Layers)/2*per+0.5))
			if d := c.End - c.Start; d < want-1 || d > want+1 {
				t.Errorf("%s: refresh took %v, want α + (L/2 layers)/bw = %v", fid, d, want)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d refreshes, want 1", fid, n)
		}
	}
	fwd := mustSimulate(t, sdpScenario(t, 4, "fraction: 0.5, masking: forward", ""))
	for _, c := range fwd.Collectives {
		if c.Purpose == "model" {
			t.Errorf("forward masking refreshes weights: %+v", c)
		}
	}
}

// TestSDPErrors checks that bad parallel.sdp settings are refused naming
// the key and what it allows.
func TestSDPErrors(t *testing.T) {
	base := "cluster: {gpu: h100-sxm, nodes: 4, gpus_per_node: 2}\n"
	for _, tc := range []struct{ yaml, field, want string }{
		{"parallel: {dp: 8, sdp: {fraction: 0.3}}", "parallel.sdp.fraction", "k/dp"},
		{"parallel: {dp: 8, sdp: {fraction: 1.5}}", "parallel.sdp.fraction", "k/dp"},
		{"parallel: {dp: 8, sdp: {fraction: -0.5}}", "parallel.sdp.fraction", "k/dp"},
		{"parallel: {dp: 8, sdp: {fraction: 0.5, masking: sideways}}", "parallel.sdp.masking", "backward, forward"},
		{"parallel: {dp: 8, sdp: {fraction: 0.5, level: layer}}", "parallel.sdp.level", "neuron, block"},
		{"parallel: {dp: 8, sdp: {fraction: 0.5, assignment: random}}", "parallel.sdp.assignment", "cyclic, disjoint"},
		{"parallel: {dp: 8, sdp: {fraction: 0.75, assignment: disjoint}}", "parallel.sdp.assignment", "f = 1/k"},
		{"parallel: {dp: 4, tp: 2, sdp: {fraction: 0.5}}", "parallel.sdp.fraction", "data parallelism alone"},
		{"parallel: {dp: 8, zero: 1, sdp: {fraction: 0.5}}", "parallel.sdp.fraction", "zero 0"},
		{"parallel: {dp: 8, schedule: zb-v, sdp: {fraction: 0.5}}", "parallel.sdp.fraction", "one model stage"},
		{"parallel: {dp: 8, sdp: {fraction: 0.5}}\nmodel: {preset: mixtral-8x7b}", "parallel.sdp.fraction", "dense model"},
		{"parallel: {dp: 8, sdp: {fraction: 0.5}}\ndata: {seq_dist: lognormal}", "parallel.sdp.fraction", "data.seq_dist"},
		{"parallel: {dp: 8, sdp: {fraction: 0.5}}\nfaults: [{at: 0s, gpu: 1, kind: fail_stop}]", "parallel.sdp.fraction", "faults"},
		{"parallel: {dp: 8, sdp: {fraction: 0.5, level: neuron}}\nmodel: {preset: gpt3-1.3b, heads: 4}", "parallel.sdp.level", "dividing the heads"},
	} {
		y := base + tc.yaml + "\n"
		if !strings.Contains(y, "model:") {
			y += "model: {preset: gpt3-1.3b}\n"
		}
		_, err := scenario.Parse([]byte(y))
		if err == nil || !strings.Contains(err.Error(), tc.field+":") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error naming %s with %q", tc.yaml, err, tc.field, tc.want)
		}
	}
}
