// Package run executes a scenario: Simulate validates it and hands it to
// the package of its strategy, which returns the timeline.
//
//	data-parallel     package dataparallel
//	collective        package nccltest
//	training          package training
//	parameter-server  package paramserver
//	local-sgd         package localsgd
//	split-learning    package splitlearn
//	inference         package inference
//	rlhf              package rlhf (rlhf.go turns the scenario into its config)
//
// Every strategy but RLHF lays its run out as a task graph and plays it
// with package taskgraph, the one executor that joins the event engine,
// the fabric and the collectives; RLHF's steps are priced analytically.
// The tests here run several strategies through Simulate: the golden
// timelines of every scenario under sim/scenario/testdata, and local SGD
// against data parallelism.
package run
