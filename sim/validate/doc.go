// Package validate is ParaPlay's validation gallery: published measurements
// of real clusters, each a row in a data file under rows/ (embedded), set
// beside what the simulator gives for the same configuration.
//
// A row names its source and quotes the figure as the source's claim, says
// how that figure was confirmed, and carries a tolerance. A row kind (Kind)
// turns the row's configuration into a simulated figure: a training
// iteration's achieved TFLOP/s per GPU, a collective's nccl-tests bus
// bandwidth, or a summary of the GEMM model against a measured table. Kinds
// are data: Kinds lists the built-in ones and Run takes the list, so a new
// kind is one entry.
//
// Rows are honest about the model's state: a row marked enforced must hold
// its tolerance (Report.OK is false otherwise, and paraplay validate exits
// non-zero); a row not yet enforced is still run and reported, with the
// reason it is not enforced, and is never hidden.
package validate
