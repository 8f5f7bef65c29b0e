// Package run is the registry of strategies and the entry point of a
// run: Simulate validates a scenario, holds its strategy's bound on the
// work (Work, Check) to a budget (package budget), and hands it to its
// strategy, which returns the timeline. registry.go lists the built-in strategies, one
// package each, behind the seam of package strategy:
//
//	data-parallel     package dataparallel
//	collective        package nccltest
//	training          package training
//	parameter-server  package paramserver
//	local-sgd         package localsgd
//	split-learning    package splitlearn
//	rlhf              package rlhf
//	inference         package inference
//
// Register adds a strategy from outside the list (a test does), and
// Lookup and Strategies are how the CLI, the browser app and the site
// find them. Every strategy but RLHF lays its run out as a task graph and
// plays it with package taskgraph; RLHF's steps are priced analytically.
// The tests here run every strategy through Simulate: the golden
// timelines of every scenario under sim/scenario/testdata, the
// scenario → summary cases under testdata/summary, local SGD against
// data parallelism, every strategy's work bound against its real counts
// (work_test.go), and FuzzSimulate.
package run
