// Package units defines the typed quantities of the simulator — Time
// (integer nanoseconds), Bytes and Bandwidth — with strict parsers for the
// human forms used in scenarios and URLs ("2ms", "256MiB", "100GB/s") and
// String methods that print them back.
package units
