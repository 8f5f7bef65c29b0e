package plan

import (
	"cmp"
	"slices"
)

// Loss is how many plans lost for one reason.
type Loss struct {
	// Reason is the plans' one-word Reason.
	Reason string
	// Plans is how many lost for it.
	Plans int
}

// Losses counts the plans other than the best by their Reason, commonest
// first and then by name: the command line's and the site's "why the
// others lost" line.
func Losses(plans []*Plan) []Loss {
	n := map[string]int{}
	for _, p := range plans {
		if p.Status != Best {
			n[p.Reason]++
		}
	}
	out := make([]Loss, 0, len(n))
	for r, k := range n {
		out = append(out, Loss{r, k})
	}
	slices.SortFunc(out, func(a, b Loss) int { return cmp.Or(cmp.Compare(b.Plans, a.Plans), cmp.Compare(a.Reason, b.Reason)) })
	return out
}
