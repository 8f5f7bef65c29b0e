package site

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

const longYAML = `model: {preset: llama3-8b}
cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}
parallel: {dp: 2, tp: 8}
recovery: {checkpoint_interval: 30m, checkpoint_cost: 30s, restart_cost: 10m, heartbeat_timeout: 30s}
failures: {rate_per_node_day: 3.8796, duration: 30d}
`

func TestGoodputChart(t *testing.T) {
	s, err := scenario.Parse([]byte(longYAML))
	if err != nil {
		t.Fatal(err)
	}
	svg, err := goodputChart(s)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("chart is not well-formed XML: %v", err)
		}
	}
	// 25 simulated intervals plus the legend's dot; one Daly line; Young's
	// interval as the caption prints it.
	if got := strings.Count(svg, "<circle"); got != 26 {
		t.Errorf("%d dots, want 25 intervals + 1 legend", got)
	}
	for _, want := range []string{"<polyline", "Young √(2·C·MTBF) = 13.6m", "simulated, 30-day run", `role="img"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	s.Recovery.Policy = scenario.PolicyElastic
	if svg, _ := goodputChart(s); svg != "" {
		t.Error("an elastic run got a checkpoint-restart chart")
	}
	s.Recovery.Policy, s.Failures.Duration = scenario.PolicyCheckpointRestart, 0
	if svg, _ := goodputChart(s); svg != "" {
		t.Error("a scenario that is not a long run got a chart")
	}
}
