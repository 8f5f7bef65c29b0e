package hw

import (
	"strings"
	"testing"

	"paraplay/sim/units"
)

func TestDeviceCatalogValidates(t *testing.T) {
	ds := Devices()
	for i, d := range ds {
		if err := d.Validate(); err != nil {
			t.Errorf("%s: %v", d.Name, err)
		}
		if i > 0 && ds[i-1].Name >= d.Name {
			t.Errorf("devices not sorted and unique: %s before %s", ds[i-1].Name, d.Name)
		}
	}
}

// TestDerivedDevicePeaks recomputes the derived peaks from the counts the
// sources give, so a typo in a constant shows.
func TestDerivedDevicePeaks(t *testing.T) {
	for _, c := range []struct {
		name string
		want float64
	}{
		{"raspberry-pi-5", 4 * 2.4e9 * 16},     // cores × clock × fp32 FLOP/cycle
		{"jetson-orin-nano", 1024 * 2 * 625e6}, // CUDA cores × FMA × clock
		{"laptop", 8 * 3e9 * 32},
	} {
		d, err := LookupDevice(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if !near(d.PeakFLOPS, c.want, 1e-12) {
			t.Errorf("%s: peak %v, want %v", c.name, d.PeakFLOPS, c.want)
		}
	}
}

func TestDeviceComputeTime(t *testing.T) {
	d, _ := LookupDevice("raspberry-pi-5")
	// 1 GFLOP at 153.6 GFLOP/s × 0.2 = 30.72 GFLOP/s: 32.552083 ms.
	if got, want := d.ComputeTime(1e9), units.Round(1e9/(153.6e9*0.2)); got != want {
		t.Errorf("ComputeTime = %v, want %v", got, want)
	}
}

func TestLookupUnknownDeviceListsKnown(t *testing.T) {
	_, err := LookupDevice("pager")
	if err == nil || !strings.Contains(err.Error(), "raspberry-pi-5") {
		t.Errorf("error %v should list the known devices", err)
	}
}

func TestDeviceValidateRejects(t *testing.T) {
	d := Device{Name: "Bad Name", Kind: "toaster", PeakFLOPS: -1, Efficiency: 2}
	err := d.Validate()
	for _, want := range []string{"name", "kind", "display name", "peak", "memory", "efficiency"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %s", err, want)
		}
	}
}
