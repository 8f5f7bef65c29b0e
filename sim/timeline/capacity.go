package timeline

import (
	"cmp"
	"fmt"
	"slices"

	"paraplay/sim/units"
)

// rateChange is a step of the total rate on a link: +r when a message's
// rate piece starts, −r when it ends.
type rateChange struct {
	at    units.Time
	delta float64
}

// checkCapacity sweeps every link's rate pieces: at no instant may the
// messages crossing a link send faster than its bandwidth. The changes of
// all links share one array (counted first, then filled link by link), so
// the sweep allocates once however many links and messages there are.
func (tl *Timeline) checkCapacity() []error {
	offset := make([]int, len(tl.Links)+1)
	tl.eachPiece(func(link int, _ Rate, _ units.Time) { offset[link+1] += 2 })
	for id := range tl.Links {
		offset[id+1] += offset[id]
	}
	changes := make([]rateChange, offset[len(tl.Links)])
	fill := slices.Clone(offset[:len(tl.Links)])
	tl.eachPiece(func(link int, r Rate, until units.Time) {
		changes[fill[link]] = rateChange{r.At, r.BytesPerSecond}
		changes[fill[link]+1] = rateChange{until, -r.BytesPerSecond}
		fill[link] += 2
	})
	var errs []error
	for id := range tl.Links {
		cs := changes[offset[id]:offset[id+1]]
		slices.SortFunc(cs, func(a, b rateChange) int {
			return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta)) // ends before starts
		})
		limit := float64(tl.Links[id].Bandwidth) * (1 + 1e-9)
		var sum float64
		for _, c := range cs {
			sum += c.delta
			if sum > limit {
				errs = append(errs, fmt.Errorf("link %d over capacity at %v: %.4g B/s > %v", id, c.at, sum, tl.Links[id].Bandwidth))
				break
			}
		}
	}
	return errs
}

// eachPiece calls f for every link on a message's path and every piece of
// the message's rate that sends bytes, with the instant the piece ends.
func (tl *Timeline) eachPiece(f func(link int, r Rate, until units.Time)) {
	for i := range tl.Transfers {
		x := &tl.Transfers[i]
		for k, r := range x.Rates {
			until := x.End
			if k+1 < len(x.Rates) {
				until = x.Rates[k+1].At
			}
			if r.BytesPerSecond == 0 || until <= r.At {
				continue
			}
			for _, id := range x.Path {
				if id >= 0 && id < len(tl.Links) {
					f(id, r, until)
				}
			}
		}
	}
}
