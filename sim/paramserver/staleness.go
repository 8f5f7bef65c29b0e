package paramserver

import (
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// staleness enforces the bounded-staleness rules of a parameter server on
// the task graph: worker i's pull for iteration k (its gate) is held until
// the rule lets it go, and every push may let some go.
//
// SSP (Ho et al., "More Effective Distributed ML via a Stale Synchronous
// Parallel Parameter Server", NeurIPS 2013): worker i may start iteration k
// once every worker has pushed at least k − s iterations, so its version
// lag k − min_j done_j never exceeds s.
//
// DSSP (Zhao, An, Liu & Chen, "Dynamic Stale Synchronous Parallel
// Distributed Training for Deep Learning", ICDCS 2019), as we read the
// paper's server algorithm: the bound is re-chosen every iteration between
// s_L = staleness and s_U = s_L + r (r = staleness_range). A worker within
// s_L of the slowest goes on; one past s_U waits. In between, the
// synchronisation controller decides from the last iteration interval of
// this (fast) worker, I_f, and of the slowest worker, I_s, and the
// slowest's last push t_s: the slowest should push next at T_s = max(now,
// t_s + I_s); running g more iterations, the fast worker would push its
// last at now + g·I_f. The controller picks the g in 0..(s_U − lag + 1)
// that brings the two closest (the smaller on a tie): g ≥ 1 lets the worker
// go (its limit for this iteration becomes lag − 1 + g), g = 0 means that
// waiting for the slowest wastes less than computing ahead, and the worker
// is asked again at the next push. Before the slowest worker has pushed
// once, no interval is known and the controller grants nothing (plain SSP
// with s_L).
type staleness struct {
	dynamic bool
	s, r    int
	iters   int
	release func(op int)
	// gates[i][k] is the held gate of worker i's iteration k, or −1 when
	// it is not held (k ≤ s: the rule cannot bite).
	gates [][]int
	// next[i] is the first iteration of worker i whose gate is still held.
	next   []int
	done   []int           // iterations pushed, by worker
	last   [][2]units.Time // the last two push times, by worker: {previous, last}
	limits [][]int         // the lag limit in force at each gate's release
}

func newStaleness(mode string, s, r, workers, iters int, release func(int)) *staleness {
	st := &staleness{dynamic: mode == scenario.SyncDSSP, s: s, r: r, iters: iters, release: release,
		gates: grid(workers, iters, -1), next: make([]int, workers), done: make([]int, workers),
		last: make([][2]units.Time, workers), limits: grid(workers, iters, s)}
	for i := range st.next {
		st.next[i] = min(s+1, iters) // gates up to s are never held
	}
	return st
}

// held reports whether worker i's gate of iteration k must wait for the
// rule: only when k > s, since every worker has pushed ≥ 0 iterations.
func (st *staleness) held(i, k int) bool { return k > st.s }

// limitOf is the lag limit that was in force when worker i's iteration k
// was let go.
func (st *staleness) limitOf(i, k int) int { return st.limits[i][k] }

// pushed is called when worker i has pushed one more iteration at now; it
// lets go, in worker order, every gate the rule now allows.
func (st *staleness) pushed(i int, now units.Time) {
	st.done[i]++
	st.last[i] = [2]units.Time{st.last[i][1], now}
	for w := range st.next {
		for st.next[w] < st.iters {
			k := st.next[w]
			lag := k - minOf(st.done)
			if lag <= st.s {
				st.open(w, st.s)
				continue
			}
			// SSP waits; DSSP asks the controller, but only once w has
			// pushed iteration k−1 (it is asking now) and within s_U.
			if !st.dynamic || st.done[w] < k || lag > st.s+st.r {
				break
			}
			g := st.controller(w, now, st.s+st.r-lag+1)
			if g == 0 {
				break
			}
			st.open(w, lag-1+g)
		}
	}
}

// controller returns how many more iterations, 0..most, the fast worker f
// should run before meeting the slowest (see the type's comment).
func (st *staleness) controller(f int, now units.Time, most int) int {
	slow := 0
	for w, d := range st.done {
		if d < st.done[slow] {
			slow = w
		}
	}
	if st.done[slow] == 0 || st.done[f] == 0 {
		return 0
	}
	next := max(now, st.last[slow][1]+interval(st.last[slow], st.done[slow]))
	step := interval(st.last[f], st.done[f])
	best, bestGap := 0, units.Time(-1)
	for g := 0; g <= most; g++ {
		at := now + units.Time(g)*step
		gap := max(at-next, next-at)
		if bestGap < 0 || gap < bestGap {
			best, bestGap = g, gap
		}
		if at > next {
			break // further iterations only overshoot more
		}
	}
	return best
}

// interval is a worker's last iteration interval from its last two push
// times; after a single push, the time from 0 to it.
func interval(last [2]units.Time, done int) units.Time {
	if done < 2 {
		return last[1]
	}
	return last[1] - last[0]
}

// open releases worker w's next held gate with the given lag limit.
func (st *staleness) open(w, limit int) {
	k := st.next[w]
	st.limits[w][k] = limit
	st.next[w]++
	if g := st.gates[w][k]; g >= 0 {
		st.release(g)
	}
}
