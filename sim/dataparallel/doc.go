// Package dataparallel simulates one iteration of data parallelism (the
// strategy "data-parallel"): every GPU runs a forward then a backward span
// (the scenario's synthetic durations, spread by its jitter), then the
// GPUs sum their gradients with the scenario's collective over the links
// (an all-reduce: Thakur, Rabenseifner & Gropp 2005; Patarasuk & Yuan
// 2009 for the ring). A GPU joins the collective as soon as its own
// backward ends; the schedule's dependencies make the others wait for it,
// so one straggler holds up every GPU.
//
// The hardware and the collective are those of a lone collective
// (nccltest.Topology, nccltest.Schedule); the run is a task graph played
// by package taskgraph.
package dataparallel
