package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/hw"
)

func TestPresetsText(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"presets"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut.String())
	}
	text := out.String()
	for _, want := range []string{
		"Accelerators", "Links", "Calibration", "Sources",
		"989.4", "1307.4", "15.75", "0.0125", "nvlink4", "450", "82%", "369", "1.9µs", "30ms",
		"measured 370 GB/s", "nccl-tests issue #212", "H100 Tensor Core GPU Datasheet",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("presets output lacks %q", want)
		}
	}
	for _, g := range hw.GPUs() {
		if !strings.Contains(text, g.Name+" ") || !strings.Contains(text, g.Source) {
			t.Errorf("presets output lacks GPU %s or its source", g.Name)
		}
	}
	for _, l := range hw.Links() {
		if !strings.Contains(text, l.Name+" ") || !strings.Contains(text, l.Source) {
			t.Errorf("presets output lacks link %s or its source", l.Name)
		}
	}
	for _, p := range hw.Pods() {
		if !strings.Contains(text, p.TPU+" pod: "+p.Source) {
			t.Errorf("presets output lacks the pod of %s or its source", p.TPU)
		}
	}
}

func TestPresetsTextRow(t *testing.T) {
	var out bytes.Buffer
	Main([]string{"presets"}, &out, &bytes.Buffer{})
	want := map[string]string{
		"h100-sxm":      "h100-sxm NVIDIA 989.4 bf16 1978.9 80 3.35 0.50 nvlink4 8",
		"a100-sxm-80gb": "a100-sxm-80gb NVIDIA 312 bf16 - 80 2.04 0.50 nvlink3 8",
		"h800":          "h800 NVIDIA 989.4 bf16 1978.9 80 3.35 0.50 nvlink4-h800 8",
		"gb200":         "gb200 NVIDIA 2500 bf16 5000 186 8 0.50 nvlink5 72",
		"mi325x":        "mi325x AMD 1307.4 bf16 2614.9 256 6 0.35 infinity-fabric 8",
		"nvlink4-h800":  "nvlink4-h800 nvlink 200 80% 160 1.9µs",
		"nvlink4":       "nvlink4 nvlink 450 82% 369 1.9µs",
		"ib-ndr":        "ib-ndr infiniband 50 90% 45 4µs",
		"wan-1g":        "wan-1g wan 0.125 80% 0.1 30ms",
	}
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if w, ok := want[f[0]]; ok {
			if got := strings.Join(f, " "); got != w {
				t.Errorf("row %s = %q, want %q", f[0], got, w)
			}
			delete(want, f[0])
		}
	}
	for name := range want {
		t.Errorf("no row for %s", name)
	}
}

// TestPresetsTextAligned checks that the table columns line up: in the
// accelerator table every row puts its vendor at the same column.
func TestPresetsTextAligned(t *testing.T) {
	var out bytes.Buffer
	Main([]string{"presets"}, &out, &bytes.Buffer{})
	lines := strings.Split(out.String(), "\n")
	col := strings.Index(lines[1], "VENDOR")
	for _, g := range hw.GPUs() {
		for _, line := range lines {
			if strings.HasPrefix(line, g.Name+" ") {
				if got := strings.Index(line, g.Vendor); got != col {
					t.Errorf("row %q: vendor at column %d, header at %d", line, got, col)
				}
				break
			}
		}
	}
}

func TestPresetsJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"presets", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut.String())
	}
	var got struct {
		GPUs  []hw.GPU `json:"gpus"`
		Links []struct {
			hw.Link
			Effective float64 `json:"effective_bytes_per_s"`
		} `json:"links"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("--json output does not parse: %v", err)
	}
	if len(got.GPUs) != len(hw.GPUs()) || len(got.Links) != len(hw.Links()) {
		t.Fatalf("got %d GPUs and %d links, want %d and %d", len(got.GPUs), len(got.Links), len(hw.GPUs()), len(hw.Links()))
	}
	for i, want := range hw.Links() {
		l := got.Links[i]
		if l.Name != want.Name || l.LineRate != want.LineRate || l.Latency != want.Latency || l.Effective != float64(want.Effective()) {
			t.Errorf("link %d = %+v, want %+v with effective %v", i, l, want, want.Effective())
		}
	}
	for i, want := range hw.GPUs() {
		if !reflect.DeepEqual(got.GPUs[i], want) {
			t.Errorf("GPU %d = %+v, want %+v", i, got.GPUs[i], want)
		}
	}
}

func TestPresetsBadArguments(t *testing.T) {
	for _, args := range [][]string{{"presets", "--yaml"}, {"presets", "h100-sxm"}} {
		var out, errOut bytes.Buffer
		if code := Main(args, &out, &errOut); code != exitUsage {
			t.Errorf("Main(%q) = %d, want %d", args, code, exitUsage)
		}
		if errOut.Len() == 0 {
			t.Errorf("Main(%q) printed no error", args)
		}
	}
}
