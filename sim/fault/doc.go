// Package fault models what goes wrong over a long training run and what
// it costs: node failures as a seeded Poisson process with a cause mix (the
// Llama 3 report's 54-day census by default), their detection by heartbeat
// timeout, and recovery policies as cost models — checkpoint-restart
// (Young 1974, Daly 2006), elastic data parallelism, dynamic re-planning
// (Oobleck, ResiHP), redundant computation in pipeline bubbles (Bamboo) and
// rerouting microbatches to peers (ReCycle, SWARM). A run replays the
// failures against a policy and accounts every second of wall time: useful
// work, lost work, restarts, checkpoint writes, detection and degraded
// throughput, whose complement is goodput.
//
// The package is pure: it takes the iteration time (and, for re-planning,
// a function giving the iteration time on fewer GPUs) from its caller, the
// training simulator, so one distinct configuration is simulated once, not
// once per iteration. Same configuration and seed, same report.
package fault
