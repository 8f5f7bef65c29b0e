package balance

import (
	"sort"
)

// LPT assigns item i of weights to bin out[i] of bins: items in order of
// weight, heaviest first (the lower index first among equals), each to the
// bin of least load so far (the lower index among equals). It is
// deterministic and takes O(n log n + n log bins). bins must be at least
// 1; weights should not be negative.
func LPT(weights []float64, bins int) []int {
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return weights[order[i]] > weights[order[j]] })
	h := newBinHeap(bins)
	out := make([]int, len(weights))
	for _, i := range order {
		out[i] = h.bin[0]
		h.add(weights[i])
	}
	return out
}

// Loads is the total weight of each of bins bins under assignment assign.
func Loads(weights []float64, assign []int, bins int) []float64 {
	load := make([]float64, bins)
	for i, b := range assign {
		load[b] += weights[i]
	}
	return load
}

// Bound is Graham's worst case of LPT on m bins: its heaviest bin is at
// most 4/3 − 1/(3m) times the optimum's.
func Bound(m int) float64 { return 4.0/3 - 1/(3*float64(m)) }

// binHeap is a binary min-heap of bins by (load, index): bin[0] is the
// least loaded, the lower index among equals.
type binHeap struct {
	bin  []int
	load []float64 // by bin
}

func newBinHeap(n int) *binHeap {
	h := &binHeap{bin: make([]int, n), load: make([]float64, n)}
	for i := range h.bin {
		h.bin[i] = i // all loads 0: index order is a heap
	}
	return h
}

func (h *binHeap) less(i, j int) bool {
	a, b := h.bin[i], h.bin[j]
	return h.load[a] < h.load[b] || h.load[a] == h.load[b] && a < b
}

// add puts w on the top bin and sifts it down.
func (h *binHeap) add(w float64) {
	h.load[h.bin[0]] += w
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(h.bin) {
			return
		}
		if c+1 < len(h.bin) && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h.bin[i], h.bin[c] = h.bin[c], h.bin[i]
		i = c
	}
}
