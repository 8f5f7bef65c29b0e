package run

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
