// Package plan searches the parallel plans of a model on a cluster for a
// given global batch, and says which is fastest and why the others lost.
//
// A plan is a training scenario: degrees dp × tp × pp × cp (× ep for a
// mixture of experts) that multiply to the cluster's GPU count, a pipeline
// schedule (1f1b, interleaved with v = 2, 4 or 8, zb-h1, zb-h2, zb-v,
// dualpipev), the layer split (equal, or Llama 3's one layer fewer on the
// first and last model stages), tensor-parallel overlap on or off, a ZeRO stage,
// an activation-recomputation policy, and a micro-batch size b with
// m = global batch / (dp·b) microbatches per replica.
//
// The search has four steps, each simple enough to state why it is safe:
//
//  1. Enumerate every combination (enumerate.go). Two choices are fixed
//     because one option matches or beats the other in every respect the
//     simulator models: sequence parallelism is on whenever tp > 1 (the
//     same bytes as tensor parallelism's all-reduces, less activation
//     memory; Korthikanti et al. 2022), and ZeRO stages above 0 are tried
//     only with dp > 1 (ZeRO shards over the data-parallel replicas; with
//     one replica there is nothing to shard). A ZeRO-1 plan is marked
//     dominated by its ZeRO-2 twin: in the simulator both run the same
//     collectives (reduce-scatter, optimizer step on a shard, all-gather),
//     so they take the same time, and ZeRO-2 holds less gradient memory.
//  2. Screen each plan with training.Estimator.Screen: its exact peak memory (the
//     same bytes the simulation records) rules out every plan that does not
//     fit, and its work bound is a time no run of the plan can beat. The
//     work bound is the longest of a few chains of ops every run must play
//     one after another, on each pipeline device: the first microbatch's
//     forward through the stages below the device, then all the device's
//     ops (compute and blocking tensor-, context- and expert-parallel
//     communication), then either the backwards of its last microbatch
//     on the stages below, or its optimizer step — which also waits for
//     the data-parallel collectives on the GPU's one communication stream
//     (every gradient bucket, ZeRO-3's gathers before each pass, summed,
//     and the last buckets, which only start as the last backward ends)
//     and is followed by ZeRO-1/2's gather of the new parameters. These
//     terms are what make frontier plans (Llama 3 405B on 16,384 GPUs)
//     sort near their simulated times: ZeRO-3 over thousands of replicas
//     no longer looks as cheap as its compute. TestBoundBelowSimulation
//     checks bound ≤ run on random plans. Three shortcuts keep the screen
//     cheap without changing any outcome: a plan past BoundMemory GPU
//     memories gets no bound (it cannot run, and the scatter only counts
//     it); a ZeRO-1 plan gets none (dominated if it fits); and a plan with
//     tensor-parallel overlap whose twin without overlap does not fit is
//     out of memory without a screen of its own (overlap changes op times,
//     not bytes; the bound test checks that their peaks agree).
//  3. Simulate the plans that fit, at analytic fidelity, in order of their
//     work bound, in fixed-size batches. Before a plan joins a batch its
//     bound is tightened with training.Estimator.Estimate (the longest path
//     through the schedule with free messages); a plan whose bound is not
//     below the best iteration simulated so far cannot win and is not
//     simulated (Config.Exhaustive turns this off). Because the plans are
//     sorted by the work bound, the first one whose work bound reaches the
//     best ends the search.
//  4. Optionally re-simulate the best few at detailed fidelity.
//
// At thousands of GPUs one analytic simulation takes seconds and many plans
// share a bound, so the search can run for a long time. Config.MaxSimulations
// caps it: the queue is then sorted by the tight bound, at most that many
// plans are simulated, and the contenders left over are marked Unsimulated;
// Result.Floor, the smallest of their bounds, says how far from the optimum
// of the whole space the best found can be.
//
// The outcome does not depend on how many workers ran it: plans are
// enumerated in a fixed order, sorted by (bound, enumeration index), and the
// best time used for pruning changes only between batches of BatchSize.
//
// Search runs the search in slices (Step, Progress) for a caller that must
// stay responsive, such as the browser between frames; Run drives the same
// search on several CPU cores. Each simulation is one ordinary, sequential
// run.Simulate: the parallelism is only between runs.
package plan
