//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"io"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// tpu sweeps the torus collective on the TPU slice --topology names:
// every size on the slice's ICI links, as the scenario key
// collective.algorithm torus runs it.
func (f *collectiveFlags) tpu(stdout, stderr io.Writer) int {
	g, built, sizes, err := f.slice()
	if err != nil {
		fmt.Fprintf(stderr, "paraplay collective: %v\n", err)
		return exitUsage
	}
	n := len(built.Topology.GPUs)
	var results []result
	for i, s := range sizes {
		m, tl, err := nccltest.MeasureTorus(built.Topology, f.op, g, s, f.fidelity)
		if err != nil {
			fmt.Fprintf(stderr, "paraplay collective: %v\n", err)
			return exitUsage
		}
		results = append(results, result{Bytes: int64(s), Count: int64(s) / 2, Type: "bfloat16", Redop: redop(f.op), Algorithm: m.Algorithm,
			TimeS: m.Time.Seconds(), AlgBW: float64(m.AlgBW) / 1e9, BusBW: float64(m.BusBW) / 1e9, Fidelity: m.Fidelity})
		if f.trace != "" && i == len(sizes)-1 {
			if err := writeFile(f.trace, tl.WriteChromeTrace); err != nil {
				fmt.Fprintf(stderr, "paraplay collective: %v\n", err)
				return exitError
			}
		}
	}
	desc := fmt.Sprintf("%s; the collective spans %d chips per group", built.Description, g.Group())
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err := enc.Encode(struct {
			Op      string   `json:"op"`
			Algo    string   `json:"algo"`
			GPUs    int      `json:"gpus"`
			Cluster string   `json:"cluster"`
			Results []result `json:"results"`
		}{f.op, nccltest.AlgorithmTorus, n, desc, results})
		if err != nil {
			fmt.Fprintf(stderr, "paraplay collective: %v\n", err)
			return exitError
		}
		return 0
	}
	writeTable(stdout, f.op, nccltest.AlgorithmTorus, n, desc, results)
	return 0
}

// slice checks the flags of a TPU slice and builds it, with the grid the
// torus collective runs on and the sizes of the sweep. The checks are the
// scenario's (cluster.topology, collective.axes), named by their flags.
func (f *collectiveFlags) slice() (collective.Grid, *cluster.Built, []units.Bytes, error) {
	if f.algo != "auto" && f.algo != nccltest.AlgorithmTorus {
		return collective.Grid{}, nil, nil, fmt.Errorf("--algo: is %q; on a TPU slice (--topology) allowed: torus, auto", f.algo)
	}
	s := scenario.Default()
	s.Strategy = nccltest.Name
	s.Cluster.GPU, s.Cluster.Topology, s.Cluster.Twisted = f.gpu, f.topology, f.twisted
	s.Cluster.Wraparound = f.wrap
	s.Collective.Op, s.Collective.Algorithm, s.Collective.Axes = f.op, nccltest.AlgorithmTorus, f.axes
	if err := s.Validate(); err != nil {
		return collective.Grid{}, nil, nil, fmt.Errorf("--gpu, --topology, --axes, --wraparound or --op: %w", err)
	}
	g, err := nccltest.TorusGrid(s)
	if err != nil {
		return collective.Grid{}, nil, nil, err
	}
	sl, _ := s.Slice()
	built, err := cluster.BuildSlice(sl)
	if err != nil {
		return collective.Grid{}, nil, nil, err
	}
	sizes, err := f.sizes()
	return g, built, sizes, err
}
