package playground

import (
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

func parseFile(t *testing.T, name string) scenario.Scenario {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "sim", "scenario", "testdata", "long", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The "Failures over a week" preset is the week's YAML scenario, and it
// plays as a long run: its failures, a clock over its seven days that
// ends after LongRunSeconds at ×1, and the metrics panel's headline.
func TestWeekPresetIsALongRun(t *testing.T) {
	var preset *Preset
	for i, p := range Presets {
		if p.Query == WeekQuery {
			preset = &Presets[i]
		}
	}
	if preset == nil || preset.Label != "Failures over a week" {
		t.Fatalf("no \"Failures over a week\" preset with WeekQuery")
	}
	q, err := url.ParseQuery(preset.Query)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	want := parseFile(t, "llama3-8b-week.yaml")
	if got, w := s.Query().Encode(), want.Query().Encode(); got != w {
		t.Errorf("preset scenario:\n got %s\nwant %s (the YAML)", got, w)
	}
	if !IsLongRun(s) {
		t.Fatal("the week preset is not a long run")
	}
	rep, err := LongRun(s)
	if err != nil {
		t.Fatal(err)
	}
	if week := 7 * 24 * 3600.0; rep.Wall.Seconds() != week || rep.Failures == 0 {
		t.Errorf("got %v of wall time and %d failures, want a week and some", rep.Wall, rep.Failures)
	}
	c := NewLongClock(rep, View{Autoplay: true, Speed: 1})
	for range LongRunSeconds * 10 {
		c.Tick(0.1)
	}
	if c.T != rep.Wall {
		t.Errorf("after %d s at ×1 the clock is at %v, want the end %v", LongRunSeconds, c.T, rep.Wall)
	}
	c.T = 0
	c.Step(1)
	if c.T != rep.Hits[0].At {
		t.Errorf("the step key went to %v, want the first failure at %v", c.T, rep.Hits[0].At)
	}
	m := LongMetrics(rep, s.Title())
	if len(m.Rows) < 7 || m.Rows[2].Key != "failures" || m.Rows[2].Value != itoa(rep.Failures) {
		t.Errorf("metrics rows: got %+v", m.Rows)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A long run on 16,384 GPUs is refused, at once and saying where to run it.
func TestLargeLongRunSaysWhy(t *testing.T) {
	s := parseFile(t, "llama3-405b-30d.yaml")
	_, err := LongRun(s)
	if err == nil || !strings.Contains(err.Error(), "paraplay run") || !strings.Contains(err.Error(), "16384") {
		t.Fatalf("got %v, want a refusal naming the GPU count and paraplay run", err)
	}
}
