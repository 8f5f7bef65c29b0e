// Package workload describes the transformer that ParaPlay trains: its
// shapes (Model, with presets from the papers), its parameter count, the
// FLOPs of each forward and backward op, the time those take on a GPU, and
// the memory a GPU needs for model states and activations. Every cost here
// is a published closed form or an exact count, cited where it is defined,
// and tested against an independent computation.
package workload
