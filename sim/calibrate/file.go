package calibrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// MaxFileSize bounds a calibration file.
const MaxFileSize = 1 << 20

// Marshal writes c as the calibration file runs read (Parse): YAML, each
// comment line of notes first (what it was fitted from, the residuals).
// Figures keep 6 significant digits.
func Marshal(c *hw.Calibration, notes []string) []byte {
	var b bytes.Buffer
	b.WriteString("# ParaPlay calibration, written by paraplay calibrate. A run prices with it as\n")
	b.WriteString("#   paraplay run SCENARIO --calibration THIS_FILE\n")
	for _, n := range notes {
		b.WriteString("# " + n + "\n")
	}
	if len(c.Links) > 0 {
		b.WriteString("links:\n")
		for _, name := range slices.Sorted(mapKeys(c.Links)) {
			f := c.Links[name]
			fmt.Fprintf(&b, "  %s: {bandwidth: %sGB/s, latency: %sus}\n", name,
				strconv.FormatFloat(float64(f.Bandwidth)/1e9, 'g', 6, 64), strconv.FormatFloat(float64(f.Latency)/1e3, 'g', 6, 64))
		}
	}
	if len(c.GEMMScale) > 0 {
		b.WriteString("gemm_scale:\n")
		for _, name := range slices.Sorted(mapKeys(c.GEMMScale)) {
			fmt.Fprintf(&b, "  %s: %s\n", name, strconv.FormatFloat(c.GEMMScale[name], 'g', 6, 64))
		}
	}
	return b.Bytes()
}

// fileLink is a link's entry as written.
type fileLink struct {
	Bandwidth string `yaml:"bandwidth"`
	Latency   string `yaml:"latency"`
}

// Parse reads a calibration file: links by preset name with their
// bandwidth and latency (units required: 200GB/s, 5us), GEMM scales by
// GPU preset name. Unknown keys, presets and values out of range are
// errors that name them.
func Parse(data []byte) (*hw.Calibration, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("calibration: %d bytes; at most %d allowed", len(data), MaxFileSize)
	}
	var f struct {
		Links     map[string]fileLink `yaml:"links"`
		GEMMScale map[string]float64  `yaml:"gemm_scale"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("calibration: %v", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	c := &hw.Calibration{GEMMScale: f.GEMMScale}
	for _, name := range slices.Sorted(mapKeys(f.Links)) {
		l := f.Links[name]
		bw, err := units.ParseBandwidth(l.Bandwidth)
		if err != nil {
			return nil, fmt.Errorf("calibration.links.%s.bandwidth: %v", name, err)
		}
		lat, err := units.ParseTime(l.Latency)
		if err != nil {
			return nil, fmt.Errorf("calibration.links.%s.latency: %v", name, err)
		}
		if c.Links == nil {
			c.Links = map[string]hw.LinkFit{}
		}
		c.Links[name] = hw.LinkFit{Bandwidth: bw, Latency: lat}
	}
	if err := Validate(c); err != nil {
		return nil, err
	}
	return c, nil
}

// Validate reports every entry of a calibration that names no preset or lies outside its
// range, naming it.
func Validate(c *hw.Calibration) error {
	if c == nil {
		return nil
	}
	var errs []error
	for _, name := range slices.Sorted(mapKeys(c.Links)) {
		f := c.Links[name]
		if _, err := hw.LookupLink(name); err != nil && name != hw.IdealLink {
			errs = append(errs, fmt.Errorf("calibration.links.%s: %w", name, err))
		}
		if !(f.Bandwidth >= hw.MinFitBandwidth && f.Bandwidth <= hw.MaxFitBandwidth) {
			errs = append(errs, fmt.Errorf("calibration.links.%s.bandwidth: is %v; allowed %v..%v", name, f.Bandwidth, hw.MinFitBandwidth, hw.MaxFitBandwidth))
		}
		if f.Latency < 0 || f.Latency > hw.MaxFitLatency {
			errs = append(errs, fmt.Errorf("calibration.links.%s.latency: is %v; allowed 0..%v", name, f.Latency, hw.MaxFitLatency))
		}
	}
	for _, name := range slices.Sorted(mapKeys(c.GEMMScale)) {
		if _, err := hw.LookupGPU(name); err != nil {
			errs = append(errs, fmt.Errorf("calibration.gemm_scale.%s: %w", name, err))
		}
		if s := c.GEMMScale[name]; !(s >= hw.MinGEMMScale && s <= hw.MaxGEMMScale) {
			errs = append(errs, fmt.Errorf("calibration.gemm_scale.%s: is %v; allowed %v..%v", name, s, hw.MinGEMMScale, hw.MaxGEMMScale))
		}
	}
	return errors.Join(errs...)
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
