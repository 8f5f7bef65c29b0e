package training

import (
	"fmt"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
)

// Simulate runs a training scenario: one plain iteration, or the
// iterations with faults, stragglers and variable batches (faults.go).
// s must be valid (run.Simulate validates it).
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	if imperfect(s) {
		return simulateIterations(s)
	}
	tl, err := SimulateMirrored(s)
	if err == nil {
		tl.Expand()
	}
	return tl, err
}

// SimulateMirrored is Simulate, leaving a run whose data-parallel replicas
// cannot differ mirrored (mirror.go): only one replica's spans are
// recorded, and the timeline's AllSpans lists them all. A caller that
// reads the run only through the timeline's summary and writers (the
// CLI's run) needs 1/dp of the memory.
func SimulateMirrored(s scenario.Scenario) (*timeline.Timeline, error) {
	if imperfect(s) {
		return simulateIterations(s)
	}
	_, tl, err := play(s, nil, jitterSource{})
	return tl, err
}

// iteration is one training iteration being laid out as a task graph: the
// concepts of the package's files, joined.
type iteration struct {
	s scenario.Scenario
	layout
	costs
	fid   fidelity
	topo  *topo.Topology
	paths *topo.Paths // the α and bandwidth of routes between GPUs
	conditions
	g   *taskgraph.Graph
	p2p taskgraph.Channel // the pipeline's point-to-point messages
	// sends bounds the Collectives that record the pipeline's messages
	// (analytic fidelity), which a mirrored run copies to its mirrors.
	sends [2]int
	opTable
	// protocol is collective.protocol as the run resolved it
	// (useProtocol); empty for the links as they are.
	protocol string
}

// fidelity is how an iteration prices its communication.
type fidelity uint8

const (
	// ideal: an ideal network, communication is free.
	ideal fidelity = iota
	// analytic: closed-form delays, and collectives on the communication
	// streams for their α–β time.
	analytic
	// detailed: every message on the links.
	detailed
)

// fidelityOf is the fidelity of s: ideal on an ideal network, else the
// one it asks for (auto: detailed up to taskgraph.AutoDetailedRanks GPUs).
func fidelityOf(s scenario.Scenario) fidelity {
	if s.Cluster.Network == "ideal" {
		return ideal
	}
	if recordedFidelity(s) == taskgraph.Detailed {
		return detailed
	}
	return analytic
}

// recordedFidelity is the fidelity the timeline of s names: the one s asks
// for, even on an ideal network, where nothing is priced.
func recordedFidelity(s scenario.Scenario) string {
	switch s.Fidelity {
	case taskgraph.Detailed:
		return taskgraph.Detailed
	case taskgraph.Auto:
		if s.NumGPUs() <= taskgraph.AutoDetailedRanks {
			return taskgraph.Detailed
		}
	}
	return taskgraph.Analytic
}

// play simulates one iteration of s; it, when not nil, says what this
// iteration of a longer run looks like, and jitter draws its stragglers.
func play(s scenario.Scenario, it *iterState, jitter jitterSource) (*iteration, *timeline.Timeline, error) {
	tr, err := newIteration(s, it)
	if err != nil {
		return nil, nil, err
	}
	tr.jitter = jitter
	if err := tr.build(); err != nil {
		return nil, nil, err
	}
	tl, err := tr.g.Play("training", func() { tr.mirror(tr.g.Timeline(), tr.sends[0], tr.sends[1]) })
	if err != nil {
		return nil, nil, err
	}
	tr.record(tl)
	if tr.experts != nil {
		tr.experts.record(tl, tr)
		tr.experts.drawHidden(tl, tr)
	}
	return tr, tl, nil
}

func newIteration(s scenario.Scenario, it *iterState) (*iteration, error) {
	sch, err := pipeline.New(s.Parallel.Schedule, s.Parallel.PP, s.Parallel.Microbatches, s.Parallel.ChunksArg())
	if err != nil {
		return nil, fmt.Errorf("parallel.schedule: %w", err)
	}
	t, gpu, err := trainingTopology(s)
	if err != nil {
		return nil, err
	}
	if it != nil && s.Cluster.GPU != "" {
		it.degrade(t)
	}
	tr, err := newIterationOn(s, sch, t, topo.NewPaths(t), gpu, it)
	if err != nil {
		return nil, err
	}
	if err := tr.gpuTypes(); err != nil {
		return nil, err
	}
	return tr, nil
}

// Topology is the hardware a training run of s trains on (for strategies
// built on training runs, such as partitioned pretraining).
func Topology(s scenario.Scenario) (*topo.Topology, error) {
	t, _, err := trainingTopology(s)
	return t, err
}

// trainingTopology builds the scenario's hardware and looks up its GPU (a
// zero hw.GPU for ideal links).
func trainingTopology(s scenario.Scenario) (*topo.Topology, hw.GPU, error) {
	n := s.NumGPUs()
	if s.Cluster.GPU == "" {
		return topo.Switched(n, topo.Port{Bandwidth: s.Link.Bandwidth, Latency: s.Link.Latency, Kind: "ideal"}), hw.GPU{}, nil
	}
	if sl, ok := s.MeshSlice(); ok {
		b, err := cluster.BuildSlice(sl)
		if err != nil {
			return nil, hw.GPU{}, err
		}
		gpu, err := hw.LookupGPU(s.Cluster.GPU)
		return b.Topology, gpu, err
	}
	per := s.Cluster.GPUsPerNode
	if per == 0 {
		per = n
	}
	network := topo.Network(s.Cluster.Network)
	if s.Cluster.Network == "ideal" {
		network = ""
	}
	b, err := cluster.Build(cluster.Spec{GPU: s.Cluster.GPU, Nodes: max(1, s.Cluster.Nodes), PerNode: per,
		Intra: s.Cluster.Intra, Inter: s.Cluster.Inter, Network: network, Oversubscription: s.Cluster.Oversubscription, Calibration: s.Calibration})
	if err != nil {
		return nil, hw.GPU{}, err
	}
	gpu, err := hw.LookupGPU(s.Cluster.GPU)
	if err != nil {
		return nil, hw.GPU{}, err
	}
	return b.Topology, gpu, nil
}

// newIterationOn prepares the iteration of s (it: see play) with its
// schedule sch on the topology t of GPUs gpu, whose routes paths prices,
// all built from s (the estimator reuses them across scenarios). The
// caller gives each GPU its type (gpuTypes, or the estimator's uniform
// cluster).
func newIterationOn(s scenario.Scenario, sch pipeline.Schedule, t *topo.Topology, paths *topo.Paths, gpu hw.GPU, it *iterState) (*iteration, error) {
	c, err := newCosts(s, gpu)
	if err != nil {
		return nil, err
	}
	return &iteration{s: s, layout: newLayout(s.Parallel.Plan(), sch), costs: c, fid: fidelityOf(s), topo: t,
		paths: paths, conditions: conditions{it: it}}, nil
}

// build lays out the whole iteration as a graph.
func (tr *iteration) build() error {
	tr.groups()
	if err := tr.price(); err != nil {
		return err
	}
	tr.retime()
	tr.assignSequences()
	if err := tr.useProtocol(); err != nil {
		return err
	}
	tr.mirrored = tr.mirrorable()
	tr.g = taskgraph.New(tr.topo, tr.s.Title())
	tr.g.Timeline().Fidelity = recordedFidelity(tr.s)
	tr.g.TrackMemory()
	tr.p2p = tr.g.AddChannel(collective.Schedule{Op: collective.OpPipelineSend, Algorithm: "p2p", Ranks: len(tr.topo.GPUs)},
		taskgraph.Identity(len(tr.topo.GPUs)), taskgraph.PointToPoint)
	if tr.it != nil || tr.heterogeneous() {
		tr.g.ScaleCompute(tr.scaleCompute)
	}
	tr.pipelineOps()
	tr.sends[0] = len(tr.g.Timeline().Collectives)
	tr.dependencies()
	tr.sends[1] = len(tr.g.Timeline().Collectives)
	if err := tr.dataParallel(); err != nil {
		return err
	}
	if tr.sch.ReadyFirst {
		tr.readyFirstOps()
	}
	return nil
}
