// Package paramserver simulates sync.iterations iterations of data-parallel
// training through parameter servers (Li et al., OSDI 2014): in iteration
// k, worker i pulls each server's shard of the model, runs its forward and
// backward (compute.forward and compute.backward divided by its speed
// factor, spread by compute.jitter), and pushes its gradient shard by
// shard. Every message crosses the fabric: the workers' and the servers'
// ports on one switch, one message at a time per port (the single-port
// model of the α–β literature). The servers' arithmetic is not charged.
//
// The synchronisation decides when worker i may pull for iteration k:
//
//	bsp   once every worker has pushed iteration k−1 (a barrier)
//	asp   once it has pushed k−1 itself
//	ssp   once it has pushed k−1 and every worker has pushed k−s
//	      (Ho et al., NeurIPS 2013), so no worker runs more than s ahead
//	dssp  as ssp with s_L = staleness, except that when a worker would
//	      block, the controller may grant it up to staleness_range more
//	      iterations, chosen from recent iteration times (staleness.go)
//
// BSP and ASP are plain dependencies of the task graph; SSP and DSSP hold
// each pull and release it from the push events, so the tests comparing
// SSP with s = 0 to BSP and a huge s to ASP compare two mechanisms.
package paramserver
