package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strings"
	"testing"
)

type collectiveJSON struct {
	GPUs    int `json:"gpus"`
	Results []struct {
		Bytes     int64   `json:"bytes"`
		TimeS     float64 `json:"time_s"`
		AlgBW     float64 `json:"algbw_GBps"`
		BusBW     float64 `json:"busbw_GBps"`
		Algorithm string  `json:"algorithm"`
		Protocol  string  `json:"protocol"`
		Channels  int     `json:"channels"`
		Fidelity  string  `json:"fidelity"`
	} `json:"results"`
}

func runCollective(t *testing.T, args ...string) (string, collectiveJSON) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := Main(append([]string{"collective"}, args...), &out, &errOut); code != 0 {
		t.Fatalf("paraplay collective %v: exit %d: %s", args, code, errOut.String())
	}
	var j collectiveJSON
	if strings.Contains(strings.Join(args, " "), "--json") {
		if err := json.Unmarshal(out.Bytes(), &j); err != nil {
			t.Fatalf("--json output: %v\n%s", err, out.String())
		}
	}
	return out.String(), j
}

// TestRingAcceptance is the first acceptance line: 8 GPUs, 100
// GB/s, 5 µs, 1 GiB ring all-reduce equals 2(n−1)α + 2(n−1)/n·S/B.
func TestRingAcceptance(t *testing.T) {
	_, j := runCollective(t, "--op", "all_reduce", "--algo", "ring", "--gpus", "8", "--link-bw", "100GB/s", "--link-latency", "5us", "--size", "1GiB", "--json")
	if len(j.Results) != 1 || j.GPUs != 8 {
		t.Fatalf("results %+v", j)
	}
	want := 2*7*5e-6 + 2*7.0/8*float64(1<<30)/100e9
	if got := j.Results[0].TimeS; math.Abs(got-want)/want > 0.005 {
		t.Errorf("time %.9fs, ring formula %.9fs", got, want)
	}
	if got, want := j.Results[0].BusBW, j.Results[0].AlgBW*2*7/8; math.Abs(got-want) > 1e-9 {
		t.Errorf("busbw %v, want algbw × 2(n−1)/n = %v", got, want)
	}
}

func TestSweepTable(t *testing.T) {
	out, _ := runCollective(t, "--op", "all_reduce", "--gpus", "8", "--gpu", "h100-sxm", "-b", "1K", "-e", "8G", "-f", "4")
	for _, w := range []string{"size", "count", "type", "time", "algbw", "busbw", "(GB/s)", "4294967296", "Avg bus bandwidth", "nvlink4"} {
		if !strings.Contains(out, w) {
			t.Errorf("table lacks %q:\n%s", w, out)
		}
	}
	if n := strings.Count(out, "float"); n != 12 {
		t.Errorf("%d rows, want 12 (1K·4^k up to 4G, the last size below 8G)", n)
	}
}

// TestChannelsAndAuto: across two DGX A100 nodes the ring runs on one
// channel per NIC (8 × 22.5 GB/s ≈ 180 GB/s bus bandwidth where one NIC
// gave 22.5), --channels 1 is the single ring, and auto says what it
// picked over what: Simple's full bandwidth beats LL128's 120/128 at 4 GiB.
func TestChannelsAndAuto(t *testing.T) {
	base := []string{"--op", "all_reduce", "--nodes", "2", "--gpus-per-node", "8", "--gpu", "a100-sxm-80gb", "--inter", "ib-hdr", "--size", "4G"}
	out, _ := runCollective(t, base...)
	if !strings.Contains(out, "# auto at 4294967296 B: ring/simple") || !strings.Contains(out, "(fastest predicted); ring/ll128") || !strings.Contains(out, "hierarchical/simple") {
		t.Errorf("auto does not say what it picked:\n%s", out)
	}
	var j struct {
		Results []struct {
			Algorithm  string  `json:"algorithm"`
			Channels   int     `json:"channels"`
			BusBW      float64 `json:"busbw_GBps"`
			AutoReason string  `json:"auto_reason"`
		} `json:"results"`
	}
	for _, tc := range []struct {
		channels   string
		want, busA float64
	}{{"0", 8, 179.5}, {"1", 1, 22.5}, {"4", 4, 90}} {
		var out, errOut bytes.Buffer
		if code := Main(append(append([]string{"collective"}, base...), "--algo", "ring", "--channels", tc.channels, "--json"), &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		if err := json.Unmarshal(out.Bytes(), &j); err != nil {
			t.Fatal(err)
		}
		r := j.Results[0]
		if float64(r.Channels) != tc.want || math.Abs(r.BusBW-tc.busA)/tc.busA > 0.01 {
			t.Errorf("--channels %s: %d channels, busbw %.1f GB/s; want %v channels, about %.1f", tc.channels, r.Channels, r.BusBW, tc.want, tc.busA)
		}
	}
}

func TestEveryOpFromTheCommandLine(t *testing.T) {
	for _, op := range []string{"all_reduce", "reduce_scatter", "all_gather", "broadcast", "reduce", "all_to_all", "sendrecv"} {
		gpus := "8"
		if op == "sendrecv" {
			gpus = "2"
		}
		_, j := runCollective(t, "--op", op, "--gpus", gpus, "--size", "16M", "--json")
		if len(j.Results) != 1 || !(j.Results[0].BusBW > 0) {
			t.Errorf("%s: %+v", op, j.Results)
		}
	}
	_, j := runCollective(t, "--op", "all_reduce", "--algo", "hierarchical", "--nodes", "2", "--gpus-per-node", "8", "--size", "64M", "--json")
	if j.GPUs != 16 || j.Results[0].Algorithm != "hierarchical" {
		t.Errorf("hierarchical on 2×8: %+v", j)
	}
	_, j = runCollective(t, "--gpus", "16384", "--size", "1G", "--json")
	if j.Results[0].Fidelity != "analytic" {
		t.Errorf("16,384 GPUs ran %s, want analytic", j.Results[0].Fidelity)
	}
}

// TestTreeAndProtocols: --algo tree runs NCCL's tree across the nodes on
// one channel per NIC, and --proto ll halves the wire's payload, so a
// large ring gets about half Simple's bus bandwidth.
func TestTreeAndProtocols(t *testing.T) {
	base := []string{"--op", "all_reduce", "--nodes", "2", "--gpus-per-node", "8", "--gpu", "a100-sxm-80gb", "--inter", "ib-hdr", "--size", "1G", "--json"}
	busbw := func(extra ...string) (collectiveJSON, float64) {
		_, j := runCollective(t, append(append([]string{}, base...), extra...)...)
		return j, j.Results[0].BusBW
	}
	tree, _ := busbw("--algo", "tree", "--proto", "simple")
	if r := tree.Results[0]; r.Algorithm != "tree" || r.Channels != 8 || r.Protocol != "simple" {
		t.Errorf("--algo tree: got %s/%s on %d channels, want tree/simple on 8", r.Algorithm, r.Protocol, r.Channels)
	}
	_, simple := busbw("--algo", "ring", "--proto", "simple")
	_, ll := busbw("--algo", "ring", "--proto", "ll")
	// LL's shorter hops give a little back at 1 GiB: 0.51.
	if got := ll / simple; math.Abs(got-0.5) > 0.02 {
		t.Errorf("ring busbw ll/simple = %.3f (%.1f / %.1f GB/s), want 0.5 ± 0.02", got, ll, simple)
	}
}

// TestNVLSFromTheCommandLine: on one 8 × H100 node --algo auto picks
// NVLink SHARP for a large all-reduce and says so; it runs analytic.
func TestNVLSFromTheCommandLine(t *testing.T) {
	_, j := runCollective(t, "--gpus", "8", "--gpu", "h100-sxm", "--size", "8G", "--json")
	if r := j.Results[0]; r.Algorithm != "nvls" || r.Protocol != "simple" || r.Fidelity != "analytic" || r.BusBW < 500 {
		t.Errorf("8×H100 8 GiB auto: %s/%s at %s, busbw %.1f; want nvls/simple, analytic, about 522 GB/s", r.Algorithm, r.Protocol, r.Fidelity, r.BusBW)
	}
}

func TestCollectiveErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--op", "all_sum"}, "unknown operation"},
		{[]string{"--algo", "magic"}, "no algorithm"},
		{[]string{"--gpu", "h900"}, "gpu:"},
		{[]string{"--gpus", "12"}, "--gpus: 12 is not a multiple of 8"},
		{[]string{"--link-bw", "fast"}, "--link-bw"},
		{[]string{"-b", "0"}, "-b:"},
		{[]string{"-b", "8G", "-e", "1K"}, "-e:"},
		{[]string{"-f", "1"}, "-f:"},
		{[]string{"--channels", "65"}, "--channels: is 65; allowed 0 (one per NIC) to 64"},
		{[]string{"--channels", "-1"}, "--channels: is -1"},
		{[]string{"--algo", "nvls", "--gpu", "a100-sxm-80gb", "--gpus", "8", "--size", "1G"}, "nvls needs a switch that reduces"},
		{[]string{"--algo", "nvls", "--proto", "ll128", "--gpus", "8", "--size", "1G"}, "nvls runs with the simple protocol only"},
		{[]string{"--proto", "ll64"}, `--proto: is "ll64"; allowed auto, none, simple, ll128, ll`},
		{[]string{"--fidelity", "vague", "--size", "1K"}, "fidelity"},
		{[]string{"--algo", "halving_doubling", "--gpus", "6", "--link-bw", "1GB/s", "--size", "1K"}, "power-of-two"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"--budget", "memory=lots", "--fidelity", "analytic"}, "--budget: memory=lots"},
		{[]string{"--nodes", "2", "--gpus-per-node", "8", "--size", "1G", "--fidelity", "detailed", "--budget", "memory=1MiB"},
			"--budget allows 1 MiB: use --fidelity analytic, fewer GPUs or fewer --chunks, or raise --budget"},
		{[]string{"--nodes", "128", "--gpus-per-node", "8", "--algo", "ring", "--size", "1G", "--fidelity", "detailed"},
			"the command line allows 1.5 GiB: use --fidelity analytic, fewer GPUs or fewer --chunks, or raise --budget (e.g. --budget memory=8GiB)"},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		code := Main(append([]string{"collective"}, tc.args...), &out, &errOut)
		if code != exitUsage || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errOut.String(), exitUsage, tc.want)
		}
	}
}

func FuzzNCCLSize(f *testing.F) {
	for _, s := range []string{"8", "1K", "8G", "256MiB", "0", "-1", "1T", "99999999999999999999K"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := parseNCCLSize(s)
		if err == nil && (b < 1 || b > 1<<40) {
			t.Errorf("parseNCCLSize(%q) = %d, outside 1B..1TiB", s, b)
		}
	})
}

// FuzzCollectiveFlags: any collective command line gives a cluster and a
// sweep of sizes within nccl-tests' bounds, or an error; never a panic.
func FuzzCollectiveFlags(f *testing.F) {
	f.Add("--op all_reduce --algo ring --gpus 8 --link-bw 100GB/s --link-latency 5us --size 1GiB")
	f.Add("--op all_reduce --gpus 8 --gpu h100-sxm -b 1K -e 8G -f 4")
	f.Add("--algo tree --nodes 8 --gpus-per-node 8 --inter ib-ndr --network fat-tree --oversubscription 3 -b 8 -e 1G")
	f.Add("--gpus -3 --nodes 0 --gpus-per-node 65 -f 1 -b 9T -e 1")
	f.Add("--gpus 24 --gpu a100-sxm-80gb --link-bw NaN --link-latency -1us")
	f.Fuzz(func(t *testing.T, line string) {
		var fl collectiveFlags
		fs := collectiveFlagSet(&fl, io.Discard)
		if err := fs.Parse(strings.Fields(line)); err != nil {
			return
		}
		built, sizes, err := fl.resolve()
		if err != nil {
			return
		}
		if n := len(built.Topology.GPUs); n < 1 {
			t.Errorf("%q: a cluster of %d GPUs", line, n)
		}
		if len(sizes) == 0 || len(sizes) > 200 {
			t.Errorf("%q: %d sizes, want 1..200", line, len(sizes))
		}
		for _, s := range sizes {
			if s < 1 || s > 1<<40 {
				t.Errorf("%q: size %d outside 1B..1TiB", line, s)
			}
		}
	})
}
