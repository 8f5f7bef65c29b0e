package collective

import (
	"sort"

	"paraplay/sim/units"
)

// DoubleBinaryTree is NCCL's tree all-reduce (Sanders, Speck & Träff 2009,
// "Two-tree algorithms for full bandwidth broadcast, reduction and scan";
// NCCL 2.4, src/graph/trees.cc): two binary trees over the same n ranks,
// each carrying half of the buffer, which is cut into pipelineChunks pieces
// per half. In each tree every piece is summed on the way up — a rank sends
// a piece to its parent once both children's copies of it have arrived —
// and copied back down from the root. Pieces follow each other, so the
// tree is busy at every level at once.
//
// The trees (Trees) are NCCL's: the first is the in-order binary tree in
// which rank r's parent is found by moving its lowest set bit up (odd
// ranks are leaves, rank 0 is the root with the single child 2^⌊log2(n−1)⌋);
// the second is its mirror r → n−1−r when n is even and its shift
// r → r+1 mod n when n is odd. Odd ranks are leaves of the first tree and
// internal in the second, so every rank is a leaf in at most one tree and
// the two trees share the work of every port.
//
// Half h (0 or 1) is ChunkBytes(S, 2, h) bytes, piece p of it is
// Transfer.Chunk h·k + p (k = pipelineChunks, pieces by ChunkBytes). A rank
// at height t (leaves 0) sends piece p up at step p + t; the root's
// children receive it back at step p + H (H the root's height) and a rank
// at depth d forwards it down at step p + H + d. See DoubleBinaryTreeTime for
// the cost.
func DoubleBinaryTree(n int, s units.Bytes, pipelineChunks int) Schedule {
	sch := Schedule{Op: OpAllReduce, Algorithm: "tree", Ranks: n, Bytes: s}
	if n < 2 || s <= 0 {
		return sch
	}
	k := max(pipelineChunks, 1)
	var sizes []units.Bytes
	for h := range 2 {
		sizes = append(sizes, evenChunks(ChunkBytes(s, 2, h), k)...)
	}
	type send struct {
		step, src, dst, chunk int
		up                    bool
	}
	var sends []send
	for h, tr := range Trees(n) {
		height, depth := tr.heights(), tr.depths()
		H := height[tr.Root]
		for p := range k {
			for r := range n {
				if up := tr.Parent[r]; up >= 0 {
					sends = append(sends, send{p + height[r], r, up, h*k + p, true})
				}
				for _, c := range tr.Children[r] {
					sends = append(sends, send{p + H + depth[r], r, c, h*k + p, false})
				}
			}
		}
	}
	sort.SliceStable(sends, func(i, j int) bool { return sends[i].step < sends[j].step })
	b := newBuilder(&sch, sizes)
	for _, x := range sends {
		if x.up {
			b.send(x.step, x.src, x.dst, x.chunk, x.chunk+1, PhaseReduce, true)
		} else {
			b.send(x.step, x.src, x.dst, x.chunk, x.chunk+1, PhaseBroadcast, false)
		}
	}
	return sch
}

// Tree is a rooted tree over ranks 0..n−1.
type Tree struct {
	// Root is the rank without a parent.
	Root int
	// Parent[r] is rank r's parent, −1 for the root.
	Parent []int
	// Children[r] lists rank r's children, at most two, in increasing
	// order of rank within the in-order tree.
	Children [][]int
}

// Trees returns the two complementary binary trees of DoubleBinaryTree on n
// ranks (n ≥ 1), as NCCL's ncclGetDtree builds them.
func Trees(n int) [2]Tree {
	first := inOrderTree(n)
	second := Tree{Parent: make([]int, n), Children: make([][]int, n)}
	m := func(r int) int { return n - 1 - r } // mirror, its own inverse
	inv := m
	if n%2 == 1 {
		m = func(r int) int { return (r - 1 + n) % n } // shift
		inv = func(r int) int { return (r + 1) % n }
	}
	for r := range n {
		v := m(r)
		second.Parent[r] = -1
		if p := first.Parent[v]; p >= 0 {
			second.Parent[r] = inv(p)
		} else {
			second.Root = r
		}
		for _, c := range first.Children[v] {
			second.Children[r] = append(second.Children[r], inv(c))
		}
	}
	return [2]Tree{first, second}
}

// inOrderTree is NCCL's ncclGetBtree: rank r with lowest set bit b has
// parent (r XOR b) | 2b, or r XOR b when that is out of range, and
// children r − b/2 and the largest r + b/2^i below n.
func inOrderTree(n int) Tree {
	t := Tree{Parent: make([]int, n), Children: make([][]int, n)}
	t.Parent[0] = -1
	for r := 1; r < n; r++ {
		bit := r & -r
		up := (r ^ bit) | bit<<1
		if up >= n {
			up = r ^ bit
		}
		t.Parent[r] = up
	}
	for r := 1; r < n; r++ {
		t.Children[t.Parent[r]] = append(t.Children[t.Parent[r]], r)
	}
	return t
}

// heights is every rank's height: 0 for a leaf, else 1 + its highest child.
func (t Tree) heights() []int {
	h := make([]int, len(t.Parent))
	var visit func(r int) int
	visit = func(r int) int {
		for _, c := range t.Children[r] {
			h[r] = max(h[r], visit(c)+1)
		}
		return h[r]
	}
	visit(t.Root)
	return h
}

// depths is every rank's distance from the root.
func (t Tree) depths() []int {
	d := make([]int, len(t.Parent))
	var visit func(r int)
	visit = func(r int) {
		for _, c := range t.Children[r] {
			d[c] = d[r] + 1
			visit(c)
		}
	}
	visit(t.Root)
	return d
}
