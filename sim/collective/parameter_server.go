package collective

import (
	"fmt"

	"paraplay/sim/units"
)

// ParameterServer is the all-reduce of a sharded parameter server (Li et al.,
// "Scaling Distributed Machine Learning with the Parameter Server", OSDI
// 2014): ranks 0..servers−1 are servers that hold no gradient of their own,
// ranks servers..servers+workers−1 are workers holding S bytes each. The
// buffer is cut into one shard per server (ChunkBytes); every worker pushes
// shard j to server j, which adds it up, and then pulls the sum back.
//
// It needs 1 ≤ servers ≤ workers. Pushes run in w = workers rounds: in
// round t worker i pushes to the server j with (i − j) mod w = t (if
// j < servers). Every round is a matching — no port carries two messages —
// and every server receives in every round, so the pushes end together
// after w messages of S/servers bytes; the pulls repeat the same rounds
// backwards (server j to worker i in round t), each waiting for all pushes
// into its shard:
//
//	2·w·(α + S/servers·β)   (γ not charged)
//
// — the server's port, not the worker's, sets the pace, which is why
// parameter servers are sharded.
func ParameterServer(workers, servers int, s units.Bytes) (Schedule, error) {
	sch := Schedule{Op: OpAllReduce, Algorithm: "ps", Ranks: workers + servers, Bytes: s, Servers: servers}
	if servers < 1 || workers < servers {
		return sch, fmt.Errorf("collective: a parameter server needs 1 ≤ servers ≤ workers, got %d servers and %d workers", servers, workers)
	}
	if s <= 0 {
		return sch, nil
	}
	b := newBuilder(&sch, evenChunks(s, servers))
	for t := range workers {
		for i := range workers {
			if j := ((i-t)%workers + workers) % workers; j < servers {
				b.send(t, servers+i, j, j, j+1, PhasePush, true)
			}
		}
	}
	for t := range workers {
		for i := range workers {
			if j := ((i-t)%workers + workers) % workers; j < servers {
				b.send(workers+t, j, servers+i, j, j+1, PhasePull, false)
			}
		}
	}
	return sch, nil
}
