//go:build !js

package gemm

// checkParams validates the parameters a model is built from (Params.Validate).
func checkParams(p Params) error { return p.Validate() }
