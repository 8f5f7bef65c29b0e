package training

import (
	"fmt"

	"paraplay/sim/scenario"
)

// stageLayers deals layers out to stages model stages as p says:
// parallel.layers_per_stage as given; first_last_fewer n, the equal split
// of layers + 2n with n fewer on the first and last stages (which also
// hold the embedding and the output head: Llama 3 405B's 126 layers on 16
// stages are 7, 8 × 14, 7, Dubey et al. 2024, §3.3.2); else Megatron's
// equal split, the first stages taking one more when they do not divide
// evenly. Every stage but the first and last needs a layer. The error
// names the field to change.
func stageLayers(p scenario.Parallel, layers, stages int) ([]int, error) {
	out := make([]int, stages)
	switch {
	case len(p.LayersPerStage) > 0:
		if len(p.LayersPerStage) != stages {
			return nil, &scenario.FieldError{Field: "parallel.layers_per_stage",
				Msg: fmt.Sprintf("lists %d stages; the schedule has %d model stages (pp·v); give one count each", len(p.LayersPerStage), stages)}
		}
		sum := 0
		for _, n := range p.LayersPerStage {
			sum += n
		}
		if sum != layers {
			return nil, &scenario.FieldError{Field: "parallel.layers_per_stage",
				Msg: fmt.Sprintf("adds up to %d layers; the model has %d", sum, layers)}
		}
		copy(out, p.LayersPerStage)
	case p.FirstLastFewer > 0 && stages > 1:
		n := p.FirstLastFewer
		total := layers + 2*n
		for k := range out {
			out[k] = total / stages
			if k >= 1 && k <= total%stages {
				out[k]++ // the remainder goes to the stages after the first
			}
		}
		out[0] -= n
		out[stages-1] -= n
		if out[0] < 0 || out[stages-1] < 0 {
			return nil, &scenario.FieldError{Field: "parallel.first_last_fewer",
				Msg: fmt.Sprintf("is %d, more than the %d layers a stage holds when %d layers are split over %d stages", n, total/stages, layers, stages)}
		}
	default:
		if layers < stages {
			return nil, &scenario.FieldError{Field: "parallel.pp",
				Msg: fmt.Sprintf("%d model stages (pp·v) for %d layers; each stage needs a layer", stages, layers)}
		}
		for k := range out {
			out[k] = layers / stages
			if k < layers%stages {
				out[k]++
			}
		}
	}
	for k := 1; k < stages-1; k++ {
		if out[k] == 0 {
			field := "parallel.layers_per_stage"
			if len(p.LayersPerStage) == 0 {
				field = "parallel.first_last_fewer"
			}
			return nil, &scenario.FieldError{Field: field, Msg: fmt.Sprintf("leaves model stage %d without a layer; only the first and last may have none", k)}
		}
	}
	return out, nil
}

// checkLayerSplit checks the two ways of splitting the layers unevenly:
// one at a time, in range, never with partition: balanced (which sizes
// the stages to the GPUs' speeds), and fitting the model and the
// schedule's stages.
func checkLayerSplit(s *scenario.Scenario, stages int, bad scenario.Reporter) {
	p := s.Parallel
	if p.FirstLastFewer < 0 || p.FirstLastFewer > scenario.MaxFirstLastFewer {
		bad("parallel.first_last_fewer", "is %d; allowed 0..%d", p.FirstLastFewer, scenario.MaxFirstLastFewer)
		return
	}
	uneven := len(p.LayersPerStage) > 0 || p.FirstLastFewer > 0
	switch {
	case !uneven:
		return
	case len(p.LayersPerStage) > 0 && p.FirstLastFewer > 0:
		bad("parallel.layers_per_stage", "and parallel.first_last_fewer both split the layers; set one")
	case p.Partition == "balanced" || p.Partition == "operators":
		bad("parallel.partition", "is %s, which sizes the stages itself; drop parallel.layers_per_stage and parallel.first_last_fewer", p.Partition)
	case s.Model.IsSynthetic():
		bad("parallel.layers_per_stage", "splits a model's layers; a synthetic model gives its op times per stage")
	case stages > 0:
		m, err := s.Model.Resolve()
		if err != nil {
			return // checkModel reports it
		}
		if _, err := stageLayers(p, m.Layers, stages); err != nil {
			fe := err.(*scenario.FieldError)
			bad(fe.Field, "%s", fe.Msg)
		}
	}
}

// checkOperatorSplit checks parallel.partition: operators, which moves
// parts of a dense layer between stages (hapt.go): it needs a real model
// without experts, sequences of one length (a varying length re-prices
// whole layers), and no re-partitioning recovery.
func checkOperatorSplit(s *scenario.Scenario, bad scenario.Reporter) {
	if s.Parallel.Partition != "operators" {
		return
	}
	m, err := s.Model.Resolve()
	switch {
	case s.Model.IsSynthetic():
		bad("parallel.partition", "is operators, which splits a model's layers; a synthetic model gives its op times per stage (use equal)")
	case err == nil && m.IsMoE():
		bad("parallel.partition", "is operators, which splits dense layers between their attention block and MLP; %s has experts (use balanced)", m.Name)
	case s.Data.SeqDist != "" && s.Data.SeqDist != "fixed":
		bad("parallel.partition", "is operators with data.seq_dist %s; it prices fixed-length sequences (set data.seq_dist: fixed, or partition: balanced)", s.Data.SeqDist)
	case s.Recovery.Policy == scenario.PolicyResiHP && len(s.Faults) > 0:
		bad("parallel.partition", "is operators with recovery.policy resihp, which re-partitions whole layers; use balanced")
	}
}

// StageLayers is the layers of each of a plan's stages model stages, as
// the simulator deals them out (stageLayers): what a launch configuration
// must reproduce (sim/launch; the browser links none of it).
func StageLayers(p scenario.Parallel, layers, stages int) ([]int, error) {
	return stageLayers(p, layers, stages)
}
