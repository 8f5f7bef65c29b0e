package timeline_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// TestStreamedJSONOfEveryScenario holds the streamed timeline JSON to
// encoding/json's bytes on every test-data scenario, whose records (faults,
// serving, RLHF, split learning, ...) use every field of a timeline.
func TestStreamedJSONOfEveryScenario(t *testing.T) {
	files, err := filepath.Glob("../scenario/testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		tl, err := run.Simulate(s)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var got, want bytes.Buffer
		if err := timeline.WriteJSON(tl, &got); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		enc := json.NewEncoder(&want)
		enc.SetIndent("", " ")
		if err := enc.Encode(tl); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: streamed timeline JSON (%d bytes) differs from encoding/json's (%d bytes)", file, got.Len(), want.Len())
		}
	}
}
