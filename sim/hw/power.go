package hw

// The power and price of each GPU preset, which the cost model (package
// cost) turns into energy, emissions and dollars. TDP is the datasheet's
// maximum board power; idle is what the board draws when it holds a CUDA
// context and runs no kernel (between a training run's kernels: bubbles,
// waits on communication). Idle figures are ASSUMPTIONS: measured idle
// powers in public sources are of GPUs at rest (no context, lower clocks),
// and a context adds 26–50 W on HBM GPUs (Vadari 2026, "The Model Parking
// Tax", arXiv 2605.23918: H100 and A100 80 GB).
const (
	idleBasis = "ASSUMPTION for idle (a CUDA context held, no kernel running): "
	// priceBasis says what the $/GPU-hour figures are.
	priceBasis = "ASSUMPTION: a round, illustrative on-demand rental rate per GPU-hour, not a quote from any provider; rates vary by provider, region, contract and month (set cost.gpu_hour)"
	// h100Idle is the H100's idle basis, borrowed by its Hopper kin.
	h100Idle = idleBasis + "100 W: the Redfish example of NVIDIA's DGX B200 user guide (power capping) shows a GPU with a 700 W limit reading 64 W, and a CUDA context adds 26–50 W (Vadari 2026, arXiv 2605.23918); not measured on a running job"
)
