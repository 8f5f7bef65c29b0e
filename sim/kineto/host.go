package kineto

import (
	"fmt"
	"sort"

	"paraplay/sim/units"
)

// gemmOps are the host operators whose inputs give a GEMM's shape; which
// operands are the two factors, and whether they are batched.
var gemmOps = map[string]struct {
	a, b    int
	batched bool
}{
	"aten::mm":         {0, 1, false},
	"aten::addmm":      {1, 2, false},
	"aten::_scaled_mm": {0, 1, false},
	"aten::bmm":        {0, 1, true},
	"aten::baddbmm":    {1, 2, true},
}

func isGEMMOp(name string) bool { _, ok := gemmOps[name]; return ok }

// gemmOp files a host GEMM operator with the shape its Input Dims give
// (record_shapes=True); one without shapes is dropped, as it cannot price
// its kernel.
func (rd *reader) gemmOp(e *rawEvent, start, end units.Time, at int64) error {
	spec := gemmOps[e.Name]
	dims, ok := decodeDims(e.Args.InputDims)
	if !ok || len(dims) <= max(spec.a, spec.b) {
		rd.t.Ignored++
		return nil
	}
	types := decodeTypes(e.Args.InputType) // the dtype is optional
	a, b := dims[spec.a], dims[spec.b]
	op := GEMMOp{Thread: e.Tid.num, Start: start, End: end}
	switch {
	case !spec.batched && len(a) == 2 && len(b) == 2 && a[1] == b[0]:
		op.Batch, op.M, op.K, op.N = 1, a[0], a[1], b[1]
	case spec.batched && len(a) == 3 && len(b) == 3 && a[0] == b[0] && a[2] == b[1]:
		op.Batch, op.M, op.K, op.N = a[0], a[1], a[2], b[2]
	default:
		rd.t.Ignored++
		return nil
	}
	if op.Batch < 1 || op.M < 1 || op.N < 1 || op.K < 1 || op.Batch > 1<<20 || op.M > 1<<30 || op.N > 1<<30 || op.K > 1<<30 {
		rd.t.Ignored++
		return nil
	}
	if len(types) > spec.a {
		op.DType = types[spec.a]
	}
	var ext int64
	if err := rd.ids(e, at, idField{"External id", e.Args.External, &ext}); err != nil {
		return err
	}
	op.External = ext
	rd.t.GEMMOps = append(rd.t.GEMMOps, op)
	return rd.keep(at)
}

// distInfo is distributedInfo's fields that the reader uses.
type distInfo struct {
	Backend   string `json:"backend"`
	Rank      *int   `json:"rank"`
	WorldSize int    `json:"world_size"`
}

// setDistributed checks and keeps distributedInfo: the rank and the
// world's size.
func (rd *reader) setDistributed(d *distInfo, at int64) error {
	rank := -1
	if d.Rank != nil {
		rank = *d.Rank
	}
	if d.Rank != nil && (rank < 0 || rank >= 1<<24) || d.WorldSize < 0 || d.WorldSize > 1<<24 || d.WorldSize > 0 && rank >= d.WorldSize {
		return rd.at(at, fmt.Sprintf("distributedInfo: rank %d of world_size %d: want 0 ≤ rank < world_size ≤ %d", rank, d.WorldSize, 1<<24))
	}
	rd.t.Rank = rank
	rd.t.WorldSize, rd.t.Backend = d.WorldSize, d.Backend
	return nil
}

// deviceProps is one entry of deviceProperties, the fields the reader uses.
type deviceProps struct {
	ID           int    `json:"id"`
	Name         string `json:"name"`
	Memory       int64  `json:"totalGlobalMem"`
	SMs          int    `json:"numSms"`
	ComputeMajor int    `json:"computeMajor"`
	ComputeMinor int    `json:"computeMinor"`
}

// setDevices checks and keeps deviceProperties.
func (rd *reader) setDevices(ds []deviceProps, at int64) error {
	if len(ds) > maxDevices {
		return rd.at(at, fmt.Sprintf("deviceProperties lists %d devices; at most %d allowed", len(ds), maxDevices))
	}
	for _, d := range ds {
		if d.ID < 0 || d.ID >= 1<<20 || d.Memory < 0 || d.SMs < 0 {
			return rd.at(at, fmt.Sprintf("deviceProperties: device %d: id, memory and SMs must be at least 0", d.ID))
		}
		rd.t.Devices = append(rd.t.Devices, Device{ID: d.ID, Name: d.Name, Memory: units.Bytes(d.Memory), SMs: d.SMs,
			ComputeMajor: d.ComputeMajor, ComputeMinor: d.ComputeMinor})
	}
	return nil
}

// Device returns the description of the GPU with index id, and whether
// deviceProperties lists it.
func (t *Trace) Device(id int) (Device, bool) {
	for _, d := range t.Devices {
		if d.ID == id {
			return d, true
		}
	}
	return Device{}, false
}

// LaunchOf returns the host call that launched k, and whether the trace
// has it.
func (t *Trace) LaunchOf(k *Kernel) (Launch, bool) {
	if k.Correlation == 0 {
		return Launch{}, false
	}
	i := sort.Search(len(t.Launches), func(i int) bool { return t.Launches[i].Correlation >= k.Correlation })
	if i < len(t.Launches) && t.Launches[i].Correlation == k.Correlation {
		return t.Launches[i], true
	}
	return Launch{}, false
}

// GEMMOf returns the host GEMM operator that launched k, and whether one
// did: the operator whose External id k carries (newer profilers), else
// the innermost GEMM operator on the launching thread that encloses the
// launch call (older ones, which give kernels the correlation id only).
func (t *Trace) GEMMOf(k *Kernel) (GEMMOp, bool) {
	if i, ok := t.byExternal[k.External]; ok && k.External != 0 {
		return t.GEMMOps[i], true
	}
	l, ok := t.LaunchOf(k)
	if !ok {
		return GEMMOp{}, false
	}
	lo := sort.Search(len(t.GEMMOps), func(i int) bool {
		o := &t.GEMMOps[i]
		return o.Thread > l.Thread || o.Thread == l.Thread && o.Start > l.Start
	})
	for i := lo - 1; i >= max(0, lo-64) && t.GEMMOps[i].Thread == l.Thread; i-- { // nesting is shallow
		if o := t.GEMMOps[i]; o.Start <= l.Start && l.End <= o.End {
			return o, true
		}
	}
	return GEMMOp{}, false
}
