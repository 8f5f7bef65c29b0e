package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"paraplay/sim/validate"
)

// TestValidateExitsOneWhenAnEnforcedRowFails: the gallery's own rows hold,
// so a row is made to fail with a kind that is far off.
func TestValidateExitsOneWhenAnEnforcedRowFails(t *testing.T) {
	rows, err := validate.Rows()
	if err != nil {
		t.Fatal(err)
	}
	farOff := validate.Kind{Name: "nccl-tests-busbw", Required: []string{"gpu", "op", "algo", "size"},
		Optional: []string{"nodes", "gpus_per_node", "inter"},
		Simulate: func(map[string]string) (float64, error) { return 1, nil }}
	for _, r := range rows {
		if r.ID != "nccl-tests-8xh100-ring" {
			continue
		}
		var out, errOut bytes.Buffer
		if code := report(validate.Run([]validate.Row{r}, []validate.Kind{farOff}), false, &out, &errOut); code != exitError {
			t.Errorf("exit %d, want %d\n%s", code, exitError, out.String())
		}
		if !strings.Contains(out.String(), "✗ FAILS") || !strings.Contains(errOut.String(), "enforced row") {
			t.Errorf("output %q, stderr %q", out.String(), errOut.String())
		}
		r.Enforced = false
		if code := report(validate.Run([]validate.Row{r}, []validate.Kind{farOff}), false, &out, &errOut); code != 0 {
			t.Errorf("not enforced: exit %d, want 0", code)
		}
		return
	}
	t.Fatal("no row nccl-tests-8xh100-ring")
}

func TestValidateCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main([]string{"validate", "--rows", "nccl-tests-8xh100-ring,megatron-2021-39b,gemm-h100-bf16-median"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"megatron-2021-39b", "138 TFLOP/s per GPU", "nccl-tests-8xh100-ring", "370 GB/s busbw",
		"✓ holds", "gemm-h100-bf16-median", "10 % median |error| (at most)", "3 rows: 3 hold"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if i, j := strings.Index(out.String(), "megatron-2021-39b"), strings.Index(out.String(), "nccl-tests-8xh100-ring"); i > j {
		t.Error("rows not in the gallery's order")
	}
}

func TestValidateCommandJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"validate", "--json", "--rows", "nccl-tests-8xa100-ring"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	var got struct {
		OK      bool `json:"ok"`
		Results []struct {
			Row struct {
				ID        string `json:"id"`
				Published struct{ Value float64 }
			} `json:"row"`
			Simulated *float64 `json:"simulated"`
			Status    string   `json:"status"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !got.OK || len(got.Results) != 1 || got.Results[0].Row.ID != "nccl-tests-8xa100-ring" ||
		got.Results[0].Simulated == nil || got.Results[0].Status != "holds" || got.Results[0].Row.Published.Value != 230 {
		t.Errorf("JSON: %s", out.String())
	}
}

func TestValidateCommandBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"validate", "--nope"},
		{"validate", "extra"},
		{"validate", "--rows", "no-such-row"},
	} {
		var out, errOut bytes.Buffer
		if code := Main(args, &out, &errOut); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	var out, errOut bytes.Buffer
	Main([]string{"validate", "--rows", "no-such-row"}, &out, &errOut)
	if !strings.Contains(errOut.String(), "known: megatron-2021-1.7b") {
		t.Errorf("unknown row: %q, want the known rows listed", errOut.String())
	}
}
