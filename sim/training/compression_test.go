package training

import (
	"math"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Compression of a training run's data-parallel gradients shrinks every
// dp collective by the ratio and charges its compute per MiB on each rank
// before the collective; other traffic is untouched.
func TestTrainingCompressesDPGradients(t *testing.T) {
	base, err := scenario.Parse([]byte("model: {preset: llama3-8b, layers: 4}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4}\nparallel: {dp: 4, pp: 2, microbatches: 4}\n"))
	if err != nil {
		t.Fatal(err)
	}
	dpBytes := func(tl *timeline.Timeline) (units.Bytes, int) {
		var b units.Bytes
		n := 0
		for _, c := range tl.Collectives {
			if c.Purpose == "dp" {
				b += c.Bytes
				n++
			}
		}
		return b, n
	}
	plain := mustSimulate(t, base)
	s := base
	s.Compression.Ratio, s.Compression.TimePerMiB = 0.25, 20*units.Microsecond
	small := mustSimulate(t, s)
	pb, pn := dpBytes(plain)
	sb, sn := dpBytes(small)
	if pn == 0 || sn != pn {
		t.Fatalf("%d and %d dp collectives", pn, sn)
	}
	if want := 0.25 * float64(pb); math.Abs(float64(sb)-want) > float64(sn) {
		t.Errorf("compressed dp bytes %v, want 0.25 × %v", sb, pb)
	}
	var spans int
	for _, sp := range small.Spans {
		if sp.Kind == timeline.Compress {
			spans++
		}
	}
	if spans == 0 {
		t.Errorf("no compression spans on the compute streams")
	}
	if _, err := scenario.Parse([]byte("strategy: collective\ncompression: {ratio: 0.5}\n")); err == nil {
		t.Errorf("compression accepted on a lone collective")
	}
}

// compression.activations shrinks the pipeline messages of a training run
// by its ratio and leaves the data-parallel gradients alone.
func TestTrainingCompressesActivations(t *testing.T) {
	base, err := scenario.Parse([]byte("model: {preset: llama3-8b, layers: 4}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4}\nparallel: {dp: 2, tp: 2, pp: 2, microbatches: 4}\n"))
	if err != nil {
		t.Fatal(err)
	}
	ppBytes := func(tl *timeline.Timeline) (pp, dp units.Bytes) {
		for i := range tl.Transfers.Len() {
			x := tl.Transfers.At(i)
			if x.Phase == "pp" {
				pp += x.Bytes
			}
		}
		for _, c := range tl.Collectives {
			if c.Purpose == "dp" {
				dp += c.Bytes
			}
		}
		return pp, dp
	}
	plain := mustSimulate(t, base)
	s := base
	s.Compression.Activations = 0.5
	half := mustSimulate(t, s)
	p0, d0 := ppBytes(plain)
	p1, d1 := ppBytes(half)
	if p0 == 0 || math.Abs(float64(p1)-float64(p0)/2) > float64(half.Transfers.Len()) || d1 != d0 {
		t.Errorf("pipeline bytes %v → %v (want half), dp bytes %v → %v (want unchanged)", p0, p1, d0, d1)
	}
	if half.End >= plain.End {
		t.Errorf("halving the activations' bytes did not shorten the iteration: %v vs %v", half.End, plain.End)
	}
	if _, err := scenario.Parse([]byte("strategy: parameter-server\ncompression: {activations: 0.5}\n")); err == nil {
		t.Errorf("compression.activations accepted outside a training run")
	}
}
