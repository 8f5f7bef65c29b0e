package scenario_test

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	_ "paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// every holds one field of each type a section's row may have.
type every struct {
	Count   int
	Share   float64
	On      bool
	Note    string
	Preset  string
	Wait    units.Time
	Buffer  units.Bytes
	Rate    units.Bandwidth
	Port    units.Bandwidth
	Workers []float64
}

// rowKind is a strategy with a section of every type, registered once for
// the tests of this file.
type rowKind struct{}

func (rowKind) Name() string { return "row-test" }
func (rowKind) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: "every", Default: every{Count: 3, Rate: 1e9, Note: "n"}, Rows: []scenario.Row{
		{Key: "count", Param: "every_count", Field: "Count"},
		{Key: "share", Param: "every_share", Field: "Share"},
		{Key: "on", Param: "every_on", Field: "On"},
		{Key: "note", Param: "every_note", Field: "Note"},
		{Key: "preset", Param: "every_preset", Field: "Preset", Trim: true},
		{Key: "wait", Param: "every_wait", Field: "Wait"},
		{Key: "buffer", Param: "every_buffer", Field: "Buffer"},
		{Key: "rate", Param: "every_rate", Field: "Rate"},
		{Key: "port", Param: "every_port", Field: "Port", ZeroDefault: true},
		{Key: "workers", Param: "every_workers", Field: "Workers"},
	}}}}
}
func (rowKind) Check(s *scenario.Scenario, bad scenario.Reporter) {
	if e := scenario.Get[every](s, "every"); e.Count < 0 {
		bad("every.count", "is %d; allowed 0 or more", e.Count)
	}
}
func (rowKind) Title(*scenario.Scenario) string    { return "rows" }
func (rowKind) Describe(*scenario.Scenario) string { return "rows of every type" }

func init() { scenario.Register(rowKind{}) }

// TestRowsOfEveryType decodes a section of every type from YAML and from
// a URL, and checks the values, the round trip and the errors.
func TestRowsOfEveryType(t *testing.T) {
	want := every{Count: 7, Share: 0.25, On: true, Note: " as given ", Preset: "h100-sxm", Wait: 3 * units.Millisecond,
		Buffer: 64 * units.MiB, Rate: 25e9, Port: 0, Workers: []float64{1, 0.5}}
	yaml := "strategy: row-test\nevery: {count: 7, share: 0.25, on: true, note: ' as given ', preset: ' h100-sxm ', wait: 3ms, buffer: 64MiB, rate: 25GB/s, port: 0, workers: '1,0.5'}\n"
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	if got := scenario.Get[every](&s, "every"); !reflect.DeepEqual(got, want) {
		t.Errorf("Parse: every = %+v, want %+v", got, want)
	}
	back, err := scenario.FromQuery(s.Query())
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Errorf("FromQuery(Query()) = %+v, %v; want %+v", back, err, s)
	}
	q := s.Query()
	if q.Get("every_port") != "" || q.Get("every_count") != "7" || q.Get("every_buffer") != "64MiB" {
		t.Errorf("Query() = %v: want every_count=7, every_buffer=64MiB and no every_port (it is the default)", q)
	}
	_, err = scenario.FromQuery(url.Values{"strategy": {"row-test"}, "every_count": {"-1"}, "every_wait": {"soon"}})
	for _, w := range []string{"every_count (every.count): is -1; allowed 0 or more", "every_wait: "} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("FromQuery error %v lacks %q", err, w)
		}
	}
}

// TestDefaultSectionsAreNotKept checks that setting a section back to its
// default leaves a scenario equal to one that never set it.
func TestDefaultSectionsAreNotKept(t *testing.T) {
	s := scenario.Default()
	s.Strategy = "row-test"
	d := s
	scenario.Edit(&s, "every", func(e *every) { e.Count = 9 })
	if reflect.DeepEqual(s, d) {
		t.Fatal("a changed section compares equal to the default")
	}
	scenario.Edit(&s, "every", func(e *every) { e.Count = 3 })
	if !reflect.DeepEqual(s, d) {
		t.Errorf("a section set back to its default is still kept: %+v", s)
	}
}

// TestRegisterRefusesMistakes checks the panics that catch a strategy's
// mistakes when it registers: a taken name, a taken key, a missing field.
func TestRegisterRefusesMistakes(t *testing.T) {
	for name, k := range map[string]scenario.Kind{
		"taken name":    badKind{"row-test", scenario.Row{Key: "y", Param: "row_y", Field: "Count"}},
		"taken key":     badKind{"row-test-2", scenario.Row{Key: "count", Param: "gpus", Field: "Count"}},
		"missing field": badKind{"row-test-3", scenario.Row{Key: "x", Param: "row_x", Field: "Nothing"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			scenario.Register(k)
		}()
	}
}

type badKind struct {
	name string
	row  scenario.Row
}

func (k badKind) Name() string { return k.name }
func (k badKind) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: k.name, Default: every{}, Rows: []scenario.Row{k.row}}}}
}
func (badKind) Check(*scenario.Scenario, scenario.Reporter) {}
func (badKind) Title(*scenario.Scenario) string             { return "" }
func (badKind) Describe(*scenario.Scenario) string          { return "" }
