package units

import (
	"fmt"
	"math"
	"strconv"
)

// Bytes is a size in bytes.
type Bytes int64

// Binary (IEC) and decimal (SI) size units.
const (
	B   Bytes = 1
	KiB Bytes = 1 << 10
	MiB Bytes = 1 << 20
	GiB Bytes = 1 << 30
	TiB Bytes = 1 << 40
	KB  Bytes = 1e3
	MB  Bytes = 1e6
	GB  Bytes = 1e9
	TB  Bytes = 1e12
)

var byteUnits = []suffixUnit{
	// Longest suffixes first: "KiB" before "B".
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"kB", 1e3}, {"B", 1},
}

// ParseBytes reads a size such as "256MiB", "1.5GB", "4096B". A unit is
// required. The result is rounded to a whole byte.
func ParseBytes(s string) (Bytes, error) {
	b, ok := parseSuffixed(s, byteUnits, false)
	if !ok {
		return 0, fmt.Errorf("invalid size %q: want a non-negative number with a unit B, KB, MB, GB, TB, KiB, MiB, GiB or TiB (e.g. 256MiB)", s)
	}
	if b >= math.MaxInt64/2 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return Bytes(math.Round(b)), nil
}

// String prints b exactly, so that ParseBytes(b.String()) == b: with the
// largest binary unit that divides it ("256MiB"), else the largest decimal
// unit that divides it ("2KB"), else in bytes ("1000003B").
func (b Bytes) String() string {
	units := []struct {
		name string
		size Bytes
	}{{"TiB", TiB}, {"GiB", GiB}, {"MiB", MiB}, {"KiB", KiB}, {"TB", TB}, {"GB", GB}, {"MB", MB}, {"KB", KB}}
	for _, u := range units {
		if b >= u.size && b%u.size == 0 {
			return strconv.FormatInt(int64(b/u.size), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(b), 10) + "B"
}
