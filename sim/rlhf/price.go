package rlhf

// assumedPrices are dollars per GPU-hour used when a scenario gives none.
// ASSUMPTION: round, illustrative rental rates for comparing placements,
// not quotes from any provider; prices vary by provider, region, contract
// and month. Set rlhf.gen_price and rlhf.train_price for real figures.
var assumedPrices = map[string]float64{
	"h100-sxm": 2.50, "h100-pcie": 2.00, "h200": 3.00, "b200": 4.50, "h20": 1.00,
	"a100-sxm-80gb": 1.50, "a100-sxm-40gb": 1.20, "mi300x": 2.50, "v100-sxm": 0.60, "t4": 0.35, "a10g": 0.75,
}

// AssumedPrice is the assumed rental rate of the GPU preset gpu in
// dollars per hour (see assumedPrices), 0 when none is assumed.
func AssumedPrice(gpu string) float64 { return assumedPrices[gpu] }
