package playground

import (
	"encoding/json"
	"math"
	"net/url"
	"testing"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
)

// TestJSONAsEncodingJSON holds the hand-written JSON of the controls, the
// metrics and the presets to json.Marshal's bytes: for every preset (its
// controls and its run's metrics, a long run's headline rows included), the
// default scenario, and values at the edges (nil and empty lists, floats in
// exponent form, text to escape, a NaN).
func TestJSONAsEncodingJSON(t *testing.T) {
	same(t, "presets", Presets, PresetsJSON)
	same(t, "no presets", []Preset(nil), PresetsJSON)
	queries := []string{""}
	for _, p := range Presets {
		queries = append(queries, p.Query)
	}
	for _, query := range queries {
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.FromQuery(q)
		if err != nil {
			t.Fatalf("%q: %v", query, err)
		}
		same(t, query+" controls", Controls(s), ControlsJSON)
		if IsLongRun(s) {
			rep, err := LongRun(s)
			if err != nil {
				t.Fatal(err)
			}
			same(t, query+" long metrics", LongMetrics(rep, s.Title()), MetricsJSON)
			continue
		}
		tl, err := run.Simulate(s)
		if err != nil {
			t.Fatalf("%q: %v", query, err)
		}
		same(t, query+" metrics", MetricsOf(tl), MetricsJSON)
	}
	lo, hi := 1e-9, 2e21
	same(t, "edge controls", []Control{{Name: "a<b>&\"", Options: []Option{}, Min: &lo, Max: &hi, Step: 1e-7, Inactive: true},
		{Kind: "select", Options: []Option{{"", "default", ""}, {"x\u2028", "\xff", "a=&b=<1>"}}}}, ControlsJSON)
	same(t, "no controls", []Control(nil), ControlsJSON)
	same(t, "plan state", PlanState{Active: true, Shown: true, Done: 3, Total: 343, Fraction: 1.0 / 3, Plans: 336, Best: 0.110041672,
		Width: 940, Height: 617.5, PickedN: 2, Phase: "done", Picked: "a=<b>&c=\u2028", CostAxis: true, BestX: 281.9, BestY: 1e-9, BestID: "plan/127"}, PlanStateJSON)
	same(t, "plan state, no best", PlanState{Phase: "screening"}, PlanStateJSON)
	same(t, "plan state, NaN", PlanState{Fraction: math.NaN()}, PlanStateJSON)
	same(t, "empty controls", []Control{}, ControlsJSON)
	same(t, "edge metrics", Metrics{Collectives: []CollectiveMetrics{}, GPUs: []GPUMetrics{{Busy: 5e-7}},
		Rows: []MetricRow{}, ExposedNS: -1}, MetricsJSON)
	same(t, "NaN", Metrics{GPUs: []GPUMetrics{{Busy: math.NaN()}}}, MetricsJSON)
}

func same[T any](t *testing.T, what string, v T, enc func(T) ([]byte, error)) {
	t.Helper()
	want, werr := json.Marshal(v)
	got, err := enc(v)
	if (err != nil) != (werr != nil) || string(got) != string(want) {
		t.Errorf("%s: wrote\n%s (error %v)\nwant (encoding/json)\n%s (error %v)", what, got, err, want, werr)
	}
}
