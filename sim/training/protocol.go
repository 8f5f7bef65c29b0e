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

// pickProtocol is "auto"'s protocol: the one NCCL's tuner would pick
// (nccltest.ChooseWith over the protocols, for the ring) for the run's
// largest recurring collective — the data-parallel all-reduce of one DDP
// bucket of the first stage's gradients when there is data parallelism,
// else the tensor-parallel all-reduce of one microbatch's activations;
// with neither, Simple, NCCL's protocol for large buffers.
func (tr *iteration) pickProtocol() (string, error) {
	gpus, bytes := tr.plan.Group(0, parallel.DP), tr.gradBytes(0)
	if buckets := math.Ceil(float64(bytes) / ddpBucket); buckets > 1 {
		bytes = units.Bytes(float64(bytes) / buckets) // one DDP bucket per call
	}
	if len(gpus) < 2 {
		gpus, bytes = tr.plan.Group(0, parallel.TP), units.Bytes(tr.boundaryElements()*bytesPerElement)
	}
	if len(gpus) < 2 || bytes <= 0 {
		return collective.Protocols()[0].Name, nil
	}
	c, err := nccltest.ChooseWith(tr.topo, string(collective.OpAllReduce), "ring", nccltest.Options{Protocol: scenario.ProtocolAuto}, tr.ringConfig(gpus, bytes), gpus)
	if err != nil {
		return "", err
	}
	return c.PickedProtocol(), nil
}
