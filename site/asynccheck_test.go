package site

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const psYAML = "strategy: parameter-server\ngpus: 4\ncollective: {size: 64MiB}\niterations: 8\nsync: {speeds: '1,0.8,0.6,0.4', mode: "

// TestCaptionAsync checks the captions of parameter-server and local-SGD
// demos: the closed forms beside the simulated figures, equal for BSP to
// the caption's rounding and within 3% for ASP (the server's port queues
// now and then).
func TestCaptionAsync(t *testing.T) {
	bsp := captionOf(t, psYAML+"bsp}")
	m := regexp.MustCompile(`simulated ([0-9.]+ ms); closed form .* = ([0-9.]+ ms)`).FindStringSubmatch(bsp)
	if m == nil || m[1] != m[2] {
		t.Errorf("BSP caption %q: want the simulated iteration equal to the closed form", bsp)
	}
	asp := captionOf(t, psYAML+"asp}")
	if !strings.Contains(asp, "Σ 1/(c_i + 2T)") || !strings.Contains(asp, "throughput while all run: simulated") {
		t.Errorf("ASP caption %q lacks the sum of rates", asp)
	}
	long := captionOf(t, strings.Replace(strings.Replace(psYAML, "64MiB", "8MiB", 1), "iterations: 8", "iterations: 40", 1)+"asp}")
	if m := regexp.MustCompile(`simulated ([0-9.]+)/s; Σ 1/\(c_i \+ 2T\) = ([0-9.]+)/s`).FindStringSubmatch(long); m == nil {
		t.Errorf("ASP caption %q", long)
	} else if sim, want := atof(m[1]), atof(m[2]); sim < 0.97*want || sim > 1.03*want {
		t.Errorf("ASP caption %q: simulated and closed form more than 3%% apart", long)
	}
	ssp := captionOf(t, psYAML+"ssp, staleness: 1}")
	if !strings.Contains(ssp, "max 1 (bound s = 1)") {
		t.Errorf("SSP caption %q", ssp)
	}
	local := captionOf(t, "strategy: local-sgd\ngpus: 4\niterations: 8\nsync: {period: 4}\n")
	t.Logf("captions:\n%s\n%s\n%s\n%s\n%s", bsp, asp, long, ssp, local)
	if !strings.Contains(local, "sent 3 GiB") || !strings.Contains(local, "would send 12 GiB, H = 4 times as much") {
		t.Errorf("local SGD caption %q", local)
	}
}

func atof(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}
