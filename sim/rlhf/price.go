package rlhf

import "paraplay/sim/hw"

// AssumedPrice is the assumed rental rate of the GPU preset gpu in dollars
// per hour, 0 when the catalog has no such preset. ASSUMPTION: the
// catalog's round, illustrative rates (hw.GPU.Price) for comparing
// placements, not quotes from any provider. Set rlhf.gen_price and
// rlhf.train_price for real figures.
func AssumedPrice(gpu string) float64 {
	g, err := hw.LookupGPU(gpu)
	if err != nil {
		return 0
	}
	return g.Price
}
