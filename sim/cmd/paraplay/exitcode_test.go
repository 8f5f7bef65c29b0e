package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes holds every command to one rule: 0 done, 2 invalid input
// (command line or scenario), 1 a valid run that failed (here: writing to a
// full disk, /dev/full).
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const training8B = "../../scenario/testdata/llama3-8b-2x8.yaml"
	twoDocs := file("two.yaml", "gpus: 4\n---\ngpus: 8\n")
	badField := file("bad.yaml", "gpus: 999\n")
	_, fullErr := os.Stat("/dev/full")
	full := fullErr == nil
	tests := []struct {
		name     string
		args     []string
		code     int
		want     string // in stdout or stderr
		needFull bool
	}{
		{"no command", nil, exitUsage, "Usage:", false},
		{"help", []string{"help"}, 0, "Exit status", false},
		{"run -h", []string{"run", "-h"}, 0, "-fidelity", false},
		{"collective -h", []string{"collective", "-h"}, 0, "-op", false},
		{"plan -h", []string{"plan", "-h"}, 0, "-model", false},
		{"export -h", []string{"export", "-h"}, 0, "-format", false},
		{"presets -h", []string{"presets", "-h"}, 0, "-json", false},
		{"unknown command", []string{"fly"}, exitUsage, "unknown command", false},
		{"run: unknown flag", []string{"run", example, "--bogus"}, exitUsage, "bogus", false},
		{"run: no file", []string{"run", "/no/such/file.yaml"}, exitUsage, "no such file", false},
		{"run: bad field", []string{"run", badField}, exitUsage, "gpus", false},
		{"run: two documents", []string{"run", twoDocs}, exitUsage, "second YAML document", false},
		{"run: bad --fidelity", []string{"run", example, "--fidelity", "exact"}, exitUsage, `--fidelity "exact"; want detailed, analytic or auto`, false},
		{"run: --fidelity analytic", []string{"run", training8B, "--fidelity", "analytic"}, 0, "(analytic simulation)", false},
		{"run: --fidelity detailed", []string{"run", training8B, "--fidelity", "detailed"}, 0, "(detailed simulation)", false},
		{"run: --fidelity auto, data parallel", []string{"run", example, "--fidelity", "auto"}, 0, "(detailed simulation)", false},
		{"run: --fidelity of a strategy that has one", []string{"run", example, "--fidelity", "analytic"}, exitUsage, "only training scenarios choose a fidelity", false},
		{"run: --fidelity detailed, long run", []string{"run", training8B, "--fidelity", "detailed", "--duration", "1d"}, exitUsage, "a long run simulates its iteration analytically", false},
		{"run: long run of a non-training scenario", []string{"run", example, "--duration", "1d"}, exitUsage, "needs a training scenario", false},
		{"run: trace to a full disk", []string{"run", example, "--trace", "/dev/full"}, exitError, "writing /dev/full: write /dev/full: no space left on device", true},
		{"run: timeline to a full disk", []string{"run", example, "--timeline", "/dev/full"}, exitError, "no space left", true},
		{"run: trace into no directory", []string{"run", example, "--trace", filepath.Join(dir, "no", "t.json")}, exitError, "no such file", false},
		{"collective: bad size", []string{"collective", "--size", "huge"}, exitUsage, "huge", false},
		{"collective: trace to a full disk", []string{"collective", "--gpus", "4", "--size", "1M", "--trace", "/dev/full"}, exitError, "no space left", true},
		{"presets: extra argument", []string{"presets", "x"}, exitUsage, "unexpected argument", false},
		{"plan: no model", []string{"plan", "--gpus", "8"}, exitUsage, "model", false},
		{"export: no --out", []string{"export", example}, exitUsage, "--out is required", false},
		{"export: --at past the end", []string{"export", example, "--format", "png", "--at", "1h", "--out", filepath.Join(dir, "x.png")}, exitUsage, "--at", false},
		{"export: GIF to a full disk", []string{"export", example, "--format", "gif", "--width", "160", "--height", "90", "--fps", "1", "--quiet", "--out", "/dev/full"}, exitError, "no space left", true},
		{"export: PNG to a full disk", []string{"export", example, "--format", "png", "--out", "/dev/full"}, exitError, "no space left", true},
	}
	for _, tt := range tests {
		if tt.needFull && !full {
			t.Logf("%s: skipped, no /dev/full", tt.name)
			continue
		}
		var out, errOut bytes.Buffer
		code := Main(tt.args, &out, &errOut)
		if code != tt.code {
			t.Errorf("%s: paraplay %s: exit %d, want %d; stderr:\n%s", tt.name, strings.Join(tt.args, " "), code, tt.code, errOut.String())
		}
		if got := out.String() + errOut.String(); !strings.Contains(got, tt.want) {
			t.Errorf("%s: output lacks %q:\n%s", tt.name, tt.want, got)
		}
	}
}

// FuzzRunCommandLine: any command line of paraplay run over a small
// scenario exits 0, 1 or 2 with a message, never a panic. Lines naming an
// output file are skipped: the fuzzer must not write where it likes.
func FuzzRunCommandLine(f *testing.F) {
	f.Add("--json")
	f.Add("--fidelity analytic --json")
	f.Add("--fidelity=detailed")
	f.Add("--fidelity exact --duration 3d")
	f.Add("--iterations -1 --sweep-checkpoint")
	f.Add("--duration 100000d --iterations 5")
	f.Add("-- --json extra.yaml")
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "trace") || strings.Contains(line, "timeline") {
			return
		}
		var out, errOut bytes.Buffer
		code := Main(append([]string{"run", example}, strings.Fields(line)...), &out, &errOut)
		switch {
		case code != 0 && code != exitError && code != exitUsage:
			t.Errorf("paraplay run %s: exit %d, want 0, 1 or 2", line, code)
		case code != 0 && errOut.Len() == 0:
			t.Errorf("paraplay run %s: exit %d without a message", line, code)
		}
	})
}
