package hw

import (
	"strings"
	"testing"
)

// TestPowerAndPriceCarrySources holds every power and price figure of the
// catalog to its source: the TDP cites a datasheet or says how it was
// confirmed (secondary sources, UNCONFIRMED), the idle power and the price
// say they are an ASSUMPTION, and the figures are physical.
func TestPowerAndPriceCarrySources(t *testing.T) {
	for _, g := range GPUs() {
		src := g.PowerSource
		if !strings.Contains(src, "Datasheet") && !strings.Contains(src, "secondary sources") && !strings.Contains(src, "UNCONFIRMED") {
			t.Errorf("%s: power source %q names no datasheet, secondary source or UNCONFIRMED", g.Name, src)
		}
		if !strings.Contains(src, "ASSUMPTION for idle") {
			t.Errorf("%s: power source %q does not say the idle figure is an ASSUMPTION", g.Name, src)
		}
		if !strings.Contains(g.PriceBasis, "ASSUMPTION") {
			t.Errorf("%s: price basis %q does not say it is an ASSUMPTION", g.Name, g.PriceBasis)
		}
		if g.TDP < 50 || g.TDP > 2000 || g.IdlePower >= g.TDP/2 {
			t.Errorf("%s: TDP %v W, idle %v W: want 50..2000 W and idle under half of it", g.Name, g.TDP, g.IdlePower)
		}
		if g.Price < 0.1 || g.Price > 20 {
			t.Errorf("%s: $%v per GPU-hour is outside 0.1..20", g.Name, g.Price)
		}
	}
}

// TestDatasheetTDPs checks the TDPs against the datasheets' figures.
func TestDatasheetTDPs(t *testing.T) {
	for name, want := range map[string]float64{"v100-sxm": 300, "a100-sxm-40gb": 400, "a100-sxm-80gb": 400,
		"h100-sxm": 700, "h100-pcie": 350, "h200": 700, "t4": 70} {
		g, err := LookupGPU(name)
		if err != nil {
			t.Fatal(err)
		}
		if g.TDP != want {
			t.Errorf("%s: TDP %v W, want the datasheet's %v W", name, g.TDP, want)
		}
	}
}

func TestValidateRejectsPower(t *testing.T) {
	good, _ := LookupGPU("h100-sxm")
	for _, tc := range []struct {
		change func(*GPU)
		want   string
	}{
		{func(g *GPU) { g.TDP = 0 }, "power"},
		{func(g *GPU) { g.IdlePower = g.TDP }, "power"},
		{func(g *GPU) { g.IdlePower = 0 }, "power"},
		{func(g *GPU) { g.Price = -1 }, "price"},
		{func(g *GPU) { g.PowerSource = "" }, "power source is empty or price basis is empty"},
		{func(g *GPU) { g.PriceBasis = "" }, "power source is empty or price basis is empty"},
	} {
		g := good
		tc.change(&g)
		if err := g.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("GPU.Validate() = %v, want an error containing %q", err, tc.want)
		}
	}
}
