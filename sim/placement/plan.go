package placement

import (
	"fmt"
	"math"

	"paraplay/sim/hw"
	"paraplay/sim/workload"
)

// MaxServers bounds Search's servers: it tries every one of p! maps.
const MaxServers = 8

// Server is one server of the cluster; a stage runs on one of its GPUs.
type Server struct {
	// GPU is its GPU preset.
	GPU hw.GPU
	// Port is its network port's bandwidth in bytes/s, each direction.
	Port float64
	// Alpha is a message's latency in seconds.
	Alpha float64
}

// Problem is a model to pipeline over servers.
type Problem struct {
	// Model is the transformer; Microbatch its sequences per microbatch.
	Model      workload.Model
	Microbatch int
	// Microbatches is m, per iteration.
	Microbatches int
	// Recompute is the activation recomputation policy.
	Recompute workload.Recompute
	// Servers run one stage each, p = len(Servers) ≥ 2.
	Servers []Server
}

// Validate names the first field out of range.
func (p Problem) Validate() error {
	switch {
	case len(p.Servers) < 2 || len(p.Servers) > MaxServers:
		return fmt.Errorf("placement: %d servers; allowed 2..%d", len(p.Servers), MaxServers)
	case p.Model.Layers < len(p.Servers):
		return fmt.Errorf("placement: %d layers for %d stages; each stage needs a layer", p.Model.Layers, len(p.Servers))
	case p.Microbatch < 1 || p.Microbatches < 1:
		return fmt.Errorf("placement: microbatch size %d and microbatches %d; both must be ≥ 1", p.Microbatch, p.Microbatches)
	}
	for i, s := range p.Servers {
		if !(s.Port > 0) || !(s.Alpha >= 0) || !(s.GPU.PeakFLOPS*s.GPU.Efficiency > 0) {
			return fmt.Errorf("placement: server %d: port %g B/s, α %g s, GPU %q; need a port > 0, α ≥ 0 and a GPU with a rate", i, s.Port, s.Alpha, s.GPU.Name)
		}
	}
	return nil
}

// Plan is a placement: Map[k] is the server of stage k, Layers[k] its
// layers, and Makespan the closed form's iteration of the pipeline.
type Plan struct {
	Map, Layers []int
	Makespan    float64
}

// stage is stage k's forward and backward (B, W and recomputation)
// seconds per microbatch with n layers on s: its hardware FLOPs at the
// GPU's peak × efficiency (the FLOP-count pricing of package training).
func (p Problem) stage(s Server, k, n int) (f, b float64) {
	o := workload.StageFLOPs(p.Model, n, k == 0, k == len(p.Servers)-1, p.Microbatch, 1, 1, p.Recompute)
	r := s.GPU.PeakFLOPS * s.GPU.Efficiency
	return o.Forward / r, (o.Hardware() - o.Forward) / r
}

// message is one activation (or its gradient) between two stages: b·s·h
// bf16 elements.
func (p Problem) message() float64 {
	return 2 * float64(p.Microbatch) * float64(p.Model.SeqLen) * float64(p.Model.Hidden)
}

// Makespan is the closed form of a synchronous pipeline iteration's
// pipeline phase (first forward to last backward) for stages on servers
// mp with layers, when the schedule keeps enough microbatches in flight
// that no stage waits for a message while another resource has work
// (training's hetero-1f1b). Every resource r, a stage's GPU or a server's
// port out, handles all m microbatches in turn, so
//
//	T = max_r (before_r + m·w_r + after_r)
//
// where w_r is its work per microbatch and before_r and after_r the
// chain of forwards, backwards and messages that must precede its first
// and follow its last piece of work. A GPU: w = F_k + B_k, and before +
// after = Σ_{j≠k}(F_j + B_j) + 2·Σ_j S_j, S_j = α + A/min(port) one
// message between stages j and j+1 (A bytes). Server s's port out at
// stage k sends an activation forward (k < p−1) and a gradient backward
// (k > 0) each microbatch, w = n·A/port: its first message leaves after
// the forwards up to stage k (and their messages), and its last is the
// gradient to stage k−1, after which the backwards below k remain; at the
// first stage the last is an activation, after which the rest of the
// forward and the whole backward remain. Links are full duplex.
func (p Problem) Makespan(mp, layers []int) float64 {
	n := len(mp)
	a := p.message()
	f, b, msg := make([]float64, n), make([]float64, n), make([]float64, n)
	var sumF, sumB, sumS float64
	for k := range mp {
		s := p.Servers[mp[k]]
		f[k], b[k] = p.stage(s, k, layers[k])
		sumF, sumB = sumF+f[k], sumB+b[k]
		if k+1 < n {
			t := p.Servers[mp[k+1]]
			msg[k] = max(s.Alpha, t.Alpha) + a/math.Min(s.Port, t.Port)
			sumS += msg[k]
		}
	}
	m := float64(p.Microbatches)
	var T, preF, preS, preB float64 // preX: the sums over stages before k
	for k := range mp {
		T = max(T, sumF+sumB+2*sumS+(m-1)*(f[k]+b[k]))
		port := p.Servers[mp[k]].Port
		switch {
		case k == 0:
			T = max(T, f[0]+m*a/port+sumF-f[0]+sumS-msg[0]+sumB+sumS)
		case k == n-1:
			T = max(T, sumF+sumS+b[k]+m*a/port+preB+preS-msg[k-1])
		default:
			T = max(T, preF+f[k]+preS+m*2*a/port+preB+preS-msg[k-1])
		}
		preF, preS, preB = preF+f[k], preS+msg[k], preB+b[k]
	}
	return T
}

// split deals the layers to the stages of map mp: one each, then every
// further layer to the stage whose time is smallest after taking it
// (package training's balanced partition).
func (p Problem) split(mp []int) []int {
	layers := make([]int, len(mp))
	for k := range layers {
		layers[k] = 1
	}
	for left := p.Model.Layers - len(mp); left > 0; left-- {
		best, bestT := 0, math.Inf(1)
		for k := range layers {
			f, b := p.stage(p.Servers[mp[k]], k, layers[k]+1)
			if t := f + b; t < bestT {
				best, bestT = k, t
			}
		}
		layers[best]++
	}
	return layers
}

// Search returns the plan of smallest makespan over every map of servers
// to stages, each with its balanced split, and the balanced plan: servers
// in their order, the same split rule. Ties keep the first map in
// lexicographic order, so the result is deterministic.
func Search(p Problem) (best, balanced Plan, err error) {
	if err := p.Validate(); err != nil {
		return best, balanced, err
	}
	mp := make([]int, len(p.Servers))
	for i := range mp {
		mp[i] = i
	}
	rate := func(mp []int) Plan {
		l := p.split(mp)
		return Plan{Map: append([]int(nil), mp...), Layers: l, Makespan: p.Makespan(mp, l)}
	}
	balanced = rate(mp)
	best = balanced
	for permute(mp) {
		if c := rate(mp); c.Makespan < best.Makespan*(1-1e-12) {
			best = c
		}
	}
	return best, balanced, nil
}

// permute steps mp to its next permutation in lexicographic order and
// reports whether there was one.
func permute(mp []int) bool {
	i := len(mp) - 2
	for i >= 0 && mp[i] >= mp[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(mp) - 1
	for mp[j] <= mp[i] {
		j--
	}
	mp[i], mp[j] = mp[j], mp[i]
	for l, r := i+1, len(mp)-1; l < r; l, r = l+1, r-1 {
		mp[l], mp[r] = mp[r], mp[l]
	}
	return true
}
