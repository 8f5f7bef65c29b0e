//go:build !js

package strategy_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/budget"
	"paraplay/sim/collective"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/strategy"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// relay is a strategy from outside the built-in list, written here and
// nowhere else: a token goes round a ring of GPUs, each computing for
// relay.work and then sending relay.payload to the next, for relay.laps
// laps. It has a section of its own, a task graph on the one executor, a
// record with its own invariants and summary lines, an overlay on the
// scene and a caption with a closed form.
type relay struct{}

// settings is relay's section of a scenario.
type settings struct {
	Laps    int
	Work    units.Time
	Payload units.Bytes
}

func (relay) Name() string { return "relay" }

func (relay) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: "relay", Default: settings{Laps: 1, Work: units.Millisecond, Payload: units.MiB},
		Rows: []scenario.Row{
			{Key: "laps", Param: "relay_laps", Field: "Laps"},
			{Key: "work", Param: "relay_work", Field: "Work"},
			{Key: "payload", Param: "relay_payload", Field: "Payload"},
		}}}}
}

func (relay) Check(s *scenario.Scenario, bad scenario.Reporter) {
	r := scenario.Get[settings](s, "relay")
	if r.Laps < 1 || r.Laps > 16 {
		bad("relay.laps", "is %d; allowed 1..16", r.Laps)
	}
	if r.Work < 1 || r.Payload < 1 {
		bad("relay.work", "work and payload must be positive")
	}
}

func (relay) Title(s *scenario.Scenario) string {
	return fmt.Sprintf("A relay round %d GPUs", s.NumGPUs())
}

func (relay) Describe(s *scenario.Scenario) string {
	r := scenario.Get[settings](s, "relay")
	return fmt.Sprintf("%d laps of a %v token", r.Laps, r.Payload)
}

// Work bounds the relay: a span and a message per GPU and lap.
func (relay) Work(s scenario.Scenario) budget.Work {
	r := scenario.Get[settings](&s, "relay")
	n := float64(r.Laps * s.NumGPUs())
	c := budget.Count{N: n, Why: "relay.laps × GPUs", Field: "relay.laps", Fix: "lower relay.laps"}
	return budget.Of(budget.Items{Spans: c, Transfers: c, GPUs: s.NumGPUs()})
}

// Simulate lays the laps out as a task graph on a ring of ideal links.
func (relay) Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	r := scenario.Get[settings](&s, "relay")
	n := s.NumGPUs()
	g := taskgraph.New(topo.Ring(n, s.Link.Bandwidth, s.Link.Latency), s.Title())
	ch := g.AddChannel(collective.Schedule{Op: collective.OpSend, Algorithm: "relay", Ranks: n}, taskgraph.Identity(n), taskgraph.PointToPoint)
	rec := &lapRecord{}
	var laps []int
	prev := -1
	for lap := 0; lap < r.Laps; lap++ {
		for gpu := 0; gpu < n; gpu++ {
			span := timeline.Span{GPU: gpu, Kind: timeline.Forward, Iteration: lap, Label: "work"}
			var c int
			if prev < 0 {
				c = g.AddCompute(span, r.Work)
			} else {
				c = g.AddCompute(span, r.Work, prev)
			}
			prev = g.AddMessage(ch, collective.Transfer{Src: gpu, Dst: (gpu + 1) % n, Bytes: r.Payload, Phase: collective.PhaseToken, Step: lap}, c)
		}
		laps = append(laps, prev)
	}
	lapOf := map[int]int{}
	for i, id := range laps {
		lapOf[id] = i
	}
	g.OnFinish(func(id int) {
		if _, ok := lapOf[id]; ok {
			rec.Ends = append(rec.Ends, g.Now())
		}
	})
	tl, err := g.Finish("relay")
	if err != nil {
		return nil, err
	}
	tl.Extra = map[string]timeline.Record{"relay": rec}
	return tl, tl.Validate()
}

// Caption sets a lap beside its closed form, n·(work + α + S/B).
func (relay) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	r := scenario.Get[settings](&s, "relay")
	rec := tl.Extra["relay"].(*lapRecord)
	n := units.Time(s.NumGPUs())
	want := n * (r.Work + s.Link.Latency + s.Link.Bandwidth.TransferTime(r.Payload))
	return []strategy.Part{strategy.Figure("run {}", strategy.Nanos(sum.Iteration)),
		strategy.Compare(strategy.Check{Name: "lap", Formula: "n·(work + α + S/B)", Source: "the relay's own schedule", Tolerance: 1e-6},
			"a lap: simulated {}; n·(work + α + S/B) = {}", float64(rec.Ends[0]), float64(want), strategy.Nanoseconds)}, nil
}

// lapRecord is relay's record on the timeline: when each lap ended.
type lapRecord struct {
	Ends []units.Time `json:"ends"`
}

// Check carries the record's invariant into timeline.Validate.
func (r *lapRecord) Check(tl *timeline.Timeline) []error {
	for i, e := range r.Ends {
		if e > tl.End || (i > 0 && e <= r.Ends[i-1]) {
			return []error{fmt.Errorf("lap %d ends at %v, out of order or after the run", i, e)}
		}
	}
	return nil
}

// Report is the record's part of the summary.
func (r *lapRecord) Report(*timeline.Timeline, *timeline.Summary) timeline.Report {
	return lapReport{len(r.Ends)}
}

// lapReport is relay's lines of the summary, and its --json fields.
type lapReport struct {
	Laps int `json:"laps"`
}

func (r lapReport) WriteText(w io.Writer) { fmt.Fprintf(w, "  relay laps            %d\n", r.Laps) }

// Overlay marks the GPU holding the token.
func (r *lapRecord) Overlay(c *scene.Canvas, tl *timeline.Timeline, t units.Time) {
	for g := range tl.GPUs {
		if _, working := scene.SpanAt(tl, g, t); !working {
			continue
		}
		if box := c.Find("gpu/" + fmt.Sprint(g)); box != nil {
			c.Add(scene.Item{ID: "relay/token", Shape: scene.Rect, X: box.X, Y: box.Y - 8, W: box.W, H: 6, Fill: c.TextColor()})
		}
	}
}

// TestToyStrategyThroughTheSeam registers relay, a strategy written in
// this file alone, and runs it through every part of the seam: decoding
// from YAML and from a URL (its own keys, its own errors), Simulate, the
// timeline's one Validate, the summary's text and JSON, the scene and its
// SVG, and its caption's closed form.
func TestToyStrategyThroughTheSeam(t *testing.T) {
	run.Register(relay{})
	if st, ok := run.Lookup("relay"); !ok || st.Name() != "relay" {
		t.Fatal("run.Lookup does not find the registered strategy")
	}
	s, err := scenario.Parse([]byte("strategy: relay\ngpus: 4\nrelay: {laps: 2, work: 1ms, payload: 1MiB}\n"))
	if err != nil {
		t.Fatal(err)
	}
	q, _ := url.ParseQuery("strategy=relay&gpus=4&relay_laps=2")
	if u, err := scenario.FromQuery(q); err != nil || !reflect.DeepEqual(u, s) {
		t.Errorf("FromQuery = %+v, %v; want the YAML's %+v", u, err, s)
	}
	if _, err := scenario.Parse([]byte("strategy: relay\nrelay: {laps: 0}\n")); err == nil || !strings.Contains(err.Error(), "relay.laps: is 0; allowed 1..16") {
		t.Errorf("bad laps: error %v; want one naming relay.laps", err)
	}
	if s.Describe() != "2 laps of a 1MiB token" || s.Title() != "A relay round 4 GPUs" {
		t.Errorf("Describe %q, Title %q", s.Describe(), s.Title())
	}
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := tl.Validate(); err != nil || len(tl.Spans) != 8 || tl.Transfers.Len() != 8 {
		t.Fatalf("Validate = %v with %d spans and %d transfers; want nil, 8, 8", err, len(tl.Spans), tl.Transfers.Len())
	}
	checkSummary(t, tl)
	checkScene(t, tl)
	st, _ := run.Lookup("relay")
	parts, err := st.Caption(s, tl, tl.Summarize())
	if err != nil || len(parts) != 2 || parts[1].Check == nil || !parts[1].Agrees() {
		t.Errorf("Caption = %+v, %v; want the lap beside its closed form, agreeing", parts, err)
	}
}

func checkSummary(t *testing.T, tl *timeline.Timeline) {
	t.Helper()
	sum := tl.Summarize()
	var text bytes.Buffer
	if err := sum.WriteText(&text); err != nil || !strings.Contains(text.String(), "relay laps            2") {
		t.Errorf("summary text %q lacks the relay's line", text.String())
	}
	js, err := json.Marshal(sum)
	if err != nil || !bytes.Contains(js, []byte(`"extra":{"relay":{"laps":2}}`)) {
		t.Errorf("summary JSON %s lacks the relay's fields", js)
	}
}

func checkScene(t *testing.T, tl *timeline.Timeline) {
	t.Helper()
	dl := scene.Build(tl, units.Millisecond/2, scene.Options{}) // GPU 0 works
	found := false
	for _, it := range dl.Items {
		found = found || it.ID == "relay/token"
	}
	var svg strings.Builder
	if err := scene.WriteSVG(&svg, dl); err != nil || !found || !strings.Contains(svg.String(), `data-id="relay/token"`) {
		t.Errorf("the scene lacks the relay's token (found %v, SVG error %v)", found, err)
	}
}
