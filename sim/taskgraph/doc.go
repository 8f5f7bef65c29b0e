// Package taskgraph is the one executor of every event-driven strategy:
// a strategy lays out its run as a graph of ops and their dependencies,
// and taskgraph plays the graph on the topology with the event engine
// (package engine) and the fluid network (package fabric), and returns the
// run's timeline.
//
// An op is one of
//   - a compute span on one GPU's compute stream (AddCompute);
//   - a group op: work a group of GPUs does in lockstep, compute then
//     blocking communication, taking and giving back activation memory
//     (AddGroup, TrackMemory);
//   - one message of a placed collective schedule (AddSchedule) or a
//     point-to-point message of a channel (AddChannel, AddMessage). Each
//     GPU sends one message at a time and receives one at a time, the
//     single-port model of the α–β literature (Thakur, Rabenseifner &
//     Gropp 2005), unless the graph lets messages go concurrently
//     (ConcurrentMessages); messages share the links they cross;
//   - a collective priced by its closed form, on the communication
//     streams of its GPUs (AddClosedForm), or a plain delay (AddDelay);
//   - a join, which only waits (AddJoin).
//
// An op starts once every op it depends on has finished and, for an op
// held by Hold, once it is released (Release): the rules of a parameter
// server's bounded staleness are holds and releases. OnFinish and
// AfterFinish let a strategy watch ops finish; ScaleCompute lets it set a
// group op's compute time when it starts (GPU types, stragglers).
//
// Run plays the graph from time 0 and completes the timeline: spans in
// start order, transfers as they started, each collective's record from
// its messages. Finish is Run and a check of the timeline
// (timeline.Validate, on every run); Play is Run, the
// strategy's own record of the run, then the check. Ops are kept small on
// purpose (a 1,024-GPU ring all-reduce has two million of them): what an
// op does is looked up in the graph's tables by its index.
package taskgraph
