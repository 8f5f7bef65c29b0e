package collective

import "testing"

// must is for constructors that only fail on bad arguments.
func must(s Schedule, err error) Schedule {
	if err != nil {
		panic(err)
	}
	return s
}

// schedules is every constructor on a few rank counts: the table of the
// golden, replay and validation tests. Sizes are not multiples of the chunk
// counts so that uneven chunks are exercised.
func schedules() map[string][]Schedule {
	const s = 1000003
	out := map[string][]Schedule{}
	for _, n := range []int{2, 3, 4, 5, 6, 8, 16} {
		out["ring"] = append(out["ring"], Ring(n, s))
		out["ring_pipelined"] = append(out["ring_pipelined"], RingPipelined(n, s, 3))
		out["reduce_scatter_ring"] = append(out["reduce_scatter_ring"], ReduceScatterRing(n, s))
		out["all_gather_ring"] = append(out["all_gather_ring"], AllGatherRing(n, s))
		out["recursive_doubling"] = append(out["recursive_doubling"], RecursiveDoubling(n, s))
		out["tree"] = append(out["tree"], DoubleBinaryTree(n, s, 2))
		out["broadcast_binomial"] = append(out["broadcast_binomial"], BroadcastBinomial(n, s, n/2))
		out["broadcast_chain"] = append(out["broadcast_chain"], BroadcastChain(n, s, 1, 4))
		out["reduce_binomial"] = append(out["reduce_binomial"], ReduceBinomial(n, s, n-1))
		out["all_to_all_pairwise"] = append(out["all_to_all_pairwise"], AllToAllPairwise(n, s))
		out["barrier"] = append(out["barrier"], Barrier(n))
		if n&(n-1) == 0 {
			out["halving_doubling"] = append(out["halving_doubling"], must(RecursiveHalvingDoubling(n, s)))
		}
	}
	out["sendrecv"] = []Schedule{SendRecv(s)}
	for _, c := range [][2]int{{1, 4}, {2, 2}, {2, 3}, {3, 2}, {4, 1}} {
		out["hierarchical"] = append(out["hierarchical"], must(Hierarchical(c[0], c[1], s)))
	}
	for _, c := range [][3]int{{1, 4, 4}, {2, 2, 2}, {2, 4, 4}, {3, 4, 2}, {2, 3, 5}, {4, 1, 3}, {2, 4, 8}} {
		nodes, per, ch := c[0], c[1], c[2]
		out["channel_ring"] = append(out["channel_ring"], ChannelRing(OpAllReduce, nodes, per, s, 1, ch))
		out["channel_ring_pipelined"] = append(out["channel_ring_pipelined"], ChannelRing(OpAllReduce, nodes, per, s, 3, ch))
		out["channel_reduce_scatter"] = append(out["channel_reduce_scatter"], ChannelRing(OpReduceScatter, nodes, per, s, 1, ch))
		out["channel_all_gather"] = append(out["channel_all_gather"], ChannelRing(OpAllGather, nodes, per, s, 1, ch))
	}
	for _, c := range [][2]int{{2, 2}, {2, 4}, {3, 2}, {4, 3}, {2, 8}} {
		out["all_to_all_pxn"] = append(out["all_to_all_pxn"], AllToAllPXN(c[0], c[1], s))
	}
	for _, c := range [][3]int{{2, 4, 4}, {2, 4, 8}, {3, 2, 2}, {2, 6, 6}} {
		out["mesh_channel_ring"] = append(out["mesh_channel_ring"], MeshChannelRing(OpAllReduce, c[0], c[1], s, 1, c[2]))
	}
	for _, c := range [][4]int{{2, 2, 1, 1}, {2, 4, 1, 4}, {4, 4, 3, 4}, {3, 4, 2, 2}, {5, 2, 2, 2}, {4, 3, 1, 8}} {
		out["nccl_tree"] = append(out["nccl_tree"], NCCLTree(c[0], c[1], s, c[2], c[3]))
	}
	for _, c := range [][2]int{{3, 1}, {4, 2}, {5, 3}, {4, 4}} {
		out["ps"] = append(out["ps"], must(ParameterServer(c[0], c[1], s)))
	}
	return out
}

func TestSchedulesValidate(t *testing.T) {
	for name, list := range schedules() {
		for _, s := range list {
			if err := s.Validate(); err != nil {
				t.Errorf("%s on %d ranks: Validate() = %v, want nil", name, s.Ranks, err)
			}
		}
	}
}

// TestReplay generalises the ring's symbolic check to every schedule: each
// must reach its operation's postcondition, send only data it holds, and
// wait (in After) for every transfer whose data it carries.
func TestReplay(t *testing.T) {
	for name, list := range schedules() {
		for _, s := range list {
			if err := replay(s); err != nil {
				t.Errorf("%s on %d ranks: replay: %v", name, s.Ranks, err)
			}
		}
	}
}

func TestReplayCatchesBrokenSchedules(t *testing.T) {
	dropDep := Ring(4, 400)
	dropDep.SetAfter(5, nil)
	lost := Ring(4, 400)
	lost.Transfers = lost.Transfers[:len(lost.Transfers)-1]
	twice := Ring(4, 400)
	twice.Transfers[12].Reduce = true // an all-gather step (3) adding instead of storing
	wrongRoot := BroadcastBinomial(4, 100, 0)
	wrongRoot.Root = 1
	for _, tc := range []struct {
		name string
		s    Schedule
	}{{"missing dependency", dropDep}, {"missing transfer", lost}, {"double count", twice}, {"wrong root", wrongRoot}} {
		if err := replay(tc.s); err == nil {
			t.Errorf("replay(%s) = nil, want an error", tc.name)
		}
	}
}
