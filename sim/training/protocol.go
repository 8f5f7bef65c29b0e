package training

import (
	"fmt"
	"math"

	"paraplay/sim/collective"
	"paraplay/sim/nccltest"
	"paraplay/sim/parallel"
	"paraplay/sim/scenario"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// useProtocol applies collective.protocol to the run: NCCL applies its
// protocol (NCCL_PROTO) to every call, so every message of the run — the
// data-parallel and ZeRO collectives, the tensor-, context- and
// expert-parallel exchanges and the pipeline's sends — is priced on the
// topology as that protocol sees it (nccltest.ProtocolView), and the
// summary's collective lines name it. "auto" picks the protocol of least
// predicted time for the run's largest recurring collective (pickProtocol),
// once per run where NCCL's tuner picks per call. It runs after price,
// whose gradient sizes auto needs, and prices again on the new topology.
func (tr *iteration) useProtocol() error {
	p := tr.s.Collective.Protocol
	if p == nccltest.ProtocolNone || tr.fid == ideal {
		return nil
	}
	if p == scenario.ProtocolAuto {
		var err error
		if p, err = tr.pickProtocol(); err != nil {
			return err
		}
	}
	view, err := nccltest.ProtocolView(tr.topo, p)
	if err != nil {
		return fmt.Errorf("collective.protocol: %w", err)
	}
	tr.protocol, tr.topo, tr.paths = p, view, topo.NewPaths(view)
	return tr.price()
}

// pickProtocol is "auto"'s protocol: the one under which the run's
// largest recurring collective has the least closed-form time — the
// data-parallel all-reduce of one DDP bucket of the first stage's
// gradients when there is data parallelism, else the tensor-parallel
// all-reduce of one microbatch's activations — ties to the first of
// collective.Protocols; with neither, Simple, NCCL's protocol for large
// buffers.
func (tr *iteration) pickProtocol() (string, error) {
	gpus, bytes := tr.plan.Group(0, parallel.DP), tr.gradBytes(0)
	if buckets := math.Ceil(float64(bytes) / ddpBucket); buckets > 1 {
		bytes = units.Bytes(float64(bytes) / buckets) // one DDP bucket per call
	}
	if len(gpus) < 2 {
		gpus, bytes = tr.plan.Group(0, parallel.TP), units.Bytes(tr.boundaryElements()*bytesPerElement)
	}
	best, bestT := collective.Protocols()[0].Name, 0.0
	if len(gpus) < 2 || bytes <= 0 {
		return best, nil
	}
	raw, rawPaths := tr.topo, tr.paths
	defer func() { tr.topo, tr.paths = raw, rawPaths }()
	for i, p := range collective.Protocols() {
		view, err := nccltest.ProtocolView(raw, p.Name)
		if err != nil {
			return "", err
		}
		tr.topo, tr.paths = view, topo.NewPaths(view)
		secs, err := tr.ringTime(collective.OpAllReduce, tr.ringConfig(gpus, bytes), gpus)
		if err != nil {
			return "", err
		}
		if i == 0 || secs < bestT {
			best, bestT = p.Name, secs
		}
	}
	return best, nil
}
