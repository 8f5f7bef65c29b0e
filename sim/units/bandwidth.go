package units

import (
	"fmt"
	"math"
	"strconv"
)

// Bandwidth is a transfer rate in bytes per second.
type Bandwidth float64

// Common rates. Network gear is quoted in bits (Gbps), GPU links in bytes
// (GB/s); both parse.
const (
	BytePerSecond Bandwidth = 1
	GBps          Bandwidth = 1e9
	Gbps          Bandwidth = 1e9 / 8
)

var bandwidthUnits = []suffixUnit{
	{"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"KB/s", 1e3}, {"B/s", 1},
	{"GiB/s", 1 << 30}, {"MiB/s", 1 << 20},
	{"Tbps", 1e12 / 8}, {"Gbps", 1e9 / 8}, {"Mbps", 1e6 / 8},
}

// ParseBandwidth reads a rate such as "100GB/s", "400Gbps" or "25 GiB/s". A
// unit is required and the rate must be positive.
func ParseBandwidth(s string) (Bandwidth, error) {
	r, ok := parseSuffixed(s, bandwidthUnits, true)
	if !ok {
		return 0, fmt.Errorf("invalid bandwidth %q: want a positive number with a unit GB/s, MB/s, TB/s, GiB/s or Gbps (e.g. 100GB/s)", s)
	}
	if math.IsInf(r, 0) || r > 1e18 {
		return 0, fmt.Errorf("bandwidth %q is too large", s)
	}
	return Bandwidth(r), nil
}

// String prints the rate in GB/s, or MB/s below 1 GB/s, falling back to B/s
// when the shorter form would not parse back to exactly the same value.
func (bw Bandwidth) String() string {
	for _, u := range []struct {
		name string
		rate float64
	}{{"GB/s", 1e9}, {"MB/s", 1e6}} {
		if float64(bw) < u.rate && u.rate != 1e6 {
			continue
		}
		v := strconv.FormatFloat(float64(bw)/u.rate, 'f', -1, 64)
		if back, err := strconv.ParseFloat(v, 64); err == nil && Bandwidth(back*u.rate) == bw {
			return v + u.name
		}
	}
	return strconv.FormatFloat(float64(bw), 'f', -1, 64) + "B/s"
}

// TransferTime is the β term of the α–β model: the time to push b bytes
// through a link of rate bw, rounded once by Round.
func (bw Bandwidth) TransferTime(b Bytes) Time {
	return Round(float64(b) / float64(bw))
}
