// Package strategytest holds what the tests of every strategy package
// share: loading a scenario file, running a scenario the way run.Simulate
// does (validated first) and checking the timeline it returns.
package strategytest
