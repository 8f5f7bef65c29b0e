package playground

import (
	"math"
	"net/url"
	"paraplay/sim/nccltest"
	"paraplay/sim/scene"
	"reflect"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

func simulate(t *testing.T, query string) *timeline.Timeline {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return tl
}

func TestPresetsRun(t *testing.T) {
	for _, p := range Presets {
		tl := simulate(t, p.Query)
		if tl.End <= 0 {
			t.Errorf("%s: empty run", p.Label)
		}
	}
}

// TestServingPresetLessons checks what the serving presets say: SiPipe's
// changes shrink the imbalance and intra-stage bubbles and raise the
// throughput; the KV preset fits and grows; the SiDP preset fits where the
// same batch on replicated weights runs out of memory.
func TestServingPresetLessons(t *testing.T) {
	vllm, si := simulate(t, ServingPipelineQuery).Summarize().Inference, simulate(t, ServingSiPipeQuery).Summarize().Inference
	for _, k := range []string{timeline.BubbleImbalance, timeline.BubbleIntraStage} {
		if si.Bubbles[k] >= vllm.Bubbles[k] {
			t.Errorf("%s bubbles: SiPipe-style %v, GPU sampling %v; want fewer", k, si.Bubbles[k], vllm.Bubbles[k])
		}
	}
	if si.TokensPerSecond <= vllm.TokensPerSecond {
		t.Errorf("SiPipe-style %.0f tokens/s, GPU sampling %.0f", si.TokensPerSecond, vllm.TokensPerSecond)
	}
	oom := func(query string) bool {
		for _, m := range simulate(t, query).Memory {
			if m.OOM() {
				return true
			}
		}
		return false
	}
	if oom(ServingKVQuery) || !oom(strings.Replace(ServingKVQuery, "requests=256", "requests=768", 1)) {
		t.Error("the KV preset should fit with 256 requests and run out of memory with 768")
	}
	if oom(ServingSiDPQuery) || !oom(strings.Replace(ServingSiDPQuery, "shared_weights=fetch", "shared_weights=none", 1)) {
		t.Error("the SiDP preset should fit with shared weights and run out of memory with replicated ones")
	}
}

func TestPresetLessonsHold(t *testing.T) {
	end := func(label string) units.Time {
		for _, p := range Presets {
			if p.Label == label {
				return simulate(t, p.Query).End
			}
		}
		t.Fatalf("no preset %q", label)
		return 0
	}
	if r, tr := end("Ring, 16 GPUs, 64 KiB"), end("Tree, 16 GPUs, 64 KiB"); tr >= r {
		t.Errorf("64 KiB on 16 GPUs: tree %v, ring %v; want the tree faster", tr, r)
	}
	if r, h, c := end("2×8 H100: one-NIC ring"), end("2×8 H100: hierarchical"), end("2×8 H100: eight channels"); h >= r || c >= r {
		t.Errorf("2×8 H100: hierarchical %v, eight channels %v, one-NIC ring %v; want both faster than the one-NIC ring", h, c, r)
	}
	tl := func(label string) *timeline.Timeline {
		for _, p := range Presets {
			if p.Label == label {
				return simulate(t, p.Query)
			}
		}
		t.Fatalf("no preset %q", label)
		return nil
	}
	// The pipeline lessons: bubbles against their closed forms (p = 4,
	// m = 8): 1F1B (p−1)/(m+p−1) = 3/11, interleaved v = 2 halves the
	// warm-up, (p−1)/(v·m+p−1) = 3/19, and ZB-H1 about a third of 1F1B's.
	b1f1b, bint, bzb := tl("1F1B, 4 stages").BubbleFraction(), tl("Interleaved, 4 stages, v = 2").BubbleFraction(), tl("Zero bubble (ZB-H1), 4 stages").BubbleFraction()
	if math.Abs(b1f1b-3.0/11) > 0.005 || math.Abs(bint-3.0/19) > 0.005 || bzb >= b1f1b/2 {
		t.Errorf("bubbles: 1F1B %.4f (want %.4f), interleaved %.4f (want %.4f), ZB-H1 %.4f (want < %.4f)", b1f1b, 3.0/11, bint, 3.0/19, bzb, b1f1b/2)
	}
	peak := func(tl *timeline.Timeline) units.Bytes {
		var p units.Bytes
		for _, m := range tl.Memory {
			p = max(p, m.Peak)
		}
		return p
	}
	z0, z3 := tl("ZeRO-0, Llama 3 8B on 8 H100"), tl("ZeRO-3, Llama 3 8B on 8 H100")
	if peak(z3) >= peak(z0)/2 {
		t.Errorf("peak memory: ZeRO-3 %v, ZeRO-0 %v; want ZeRO-3 below half", peak(z3), peak(z0))
	}
	for _, m := range tl("3D: TP 4 × PP 2 × DP 2").Memory {
		if m.OOM() {
			t.Errorf("3D preset: GPU out of memory (%v of %v)", m.Peak, m.Capacity)
		}
	}
}

func TestClock(t *testing.T) {
	tl := simulate(t, "")
	c := NewClock(tl, View{Speed: 1, Autoplay: true, Loop: true})
	if !c.Playing || c.T != 0 || !c.Loop {
		t.Fatalf("new clock: %+v", c)
	}
	c.Tick(1)
	if c.T != units.Time(scene.BaseRate*1e9) {
		t.Errorf("after 1 s at ×1: T = %v, want %v", c.T, units.Time(scene.BaseRate*1e9))
	}
	c.Step(1)
	if c.Playing {
		t.Error("Step left the clock playing")
	}
	at := c.T
	c.Step(-1)
	if c.T >= at {
		t.Errorf("Step(-1) from %v went to %v", at, c.T)
	}
	c.SetSpeed(1e9)
	if c.Speed != MaxSpeed {
		t.Errorf("SetSpeed(1e9) = %v", c.Speed)
	}
	c.SetSpeed(0)
	if c.Speed != MinSpeed {
		t.Errorf("SetSpeed(0) = %v", c.Speed)
	}
	c.Loop = false
	c.Toggle()
	c.SetSpeed(MaxSpeed)
	for range 1000 {
		c.Tick(1.0 / 60)
	}
	if c.T != c.End || c.Playing {
		t.Errorf("without loop, the end: T=%v End=%v playing=%v; want paused at the end", c.T, c.End, c.Playing)
	}
	c.Loop = true
	c.Toggle() // from the end: starts over
	if c.T != 0 || !c.Playing {
		t.Errorf("Toggle at the end: T=%v playing=%v", c.T, c.Playing)
	}
	c.Seek(-5)
	if c.T != 0 {
		t.Errorf("Seek(-5) = %v", c.T)
	}
	c.ToEnd()
	if c.T != c.End || c.Playing {
		t.Errorf("ToEnd: %+v", c)
	}
	c.Playing = true
	c.Tick(EndHold / 2)
	if c.T != c.End {
		t.Error("looping clock did not hold at the end")
	}
	c.Tick(EndHold)
	if c.T != 0 {
		t.Errorf("looping clock after the hold: T=%v, want 0", c.T)
	}
}

func TestParseView(t *testing.T) {
	q, _ := url.ParseQuery("speed=500&autoplay=0&t=3ms&embed=1&hide=controls,metrics,legend")
	v, err := ParseView(q)
	if err != nil {
		t.Fatal(err)
	}
	want := View{Speed: 500, Autoplay: false, Loop: true, Start: 3 * units.Millisecond, Embed: true, Hide: []string{"controls", "metrics", "legend"}}
	if v.Speed != want.Speed || v.Autoplay != want.Autoplay || v.Loop != want.Loop || v.Start != want.Start || v.Embed != want.Embed || !slices.Equal(v.Hide, want.Hide) {
		t.Errorf("ParseView = %+v, want %+v", v, want)
	}
	q, _ = url.ParseQuery("loop=0")
	if v, err := ParseView(q); err != nil || v.Loop {
		t.Errorf("ParseView(loop=0) = %+v, %v; want Loop false", v, err)
	}
	if c := NewClock(simulate(t, ""), View{Speed: 1}); c.Loop {
		t.Error("NewClock ignored the view's Loop=false")
	}
	q, _ = url.ParseQuery("plan=1")
	if v, err := ParseView(q); err != nil || !v.Plan {
		t.Errorf("ParseView(plan=1) = %+v, %v; want Plan true", v, err)
	}
	q, _ = url.ParseQuery("speed=5000&autoplay=maybe&t=x&embed=2&loop=sometimes&plan=all")
	_, err = ParseView(q)
	for _, p := range []string{"speed", "autoplay", "t:", "embed", "loop", "plan"} {
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("error %v does not name %s", err, p)
		}
	}
}

func TestCanonical(t *testing.T) {
	q, _ := url.ParseQuery("gpus=8&size=256MiB&speed=2&embed=1")
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Canonical(q, s, true).Encode(), "embed=1&gpus=8&speed=2"; got != want {
		t.Errorf("Canonical = %q, want %q (the default size dropped)", got, want)
	}
	q, _ = url.ParseQuery("gpus=999&hide=controls")
	if got, want := Canonical(q, s, false).Encode(), "gpus=999&hide=controls"; got != want {
		t.Errorf("Canonical of a bad query = %q, want %q", got, want)
	}
}

func TestControlsCoverTheTable(t *testing.T) {
	s := scenario.Default()
	cs := Controls(s)
	if len(cs) != len(scenario.Params()) {
		t.Fatalf("%d controls for %d parameters", len(cs), len(scenario.Params()))
	}
	q := url.Values{}
	for _, c := range cs {
		if c.Label == "" || c.Kind == "" {
			t.Errorf("%s: label %q kind %q", c.Name, c.Label, c.Kind)
		}
		if c.Kind == "select" && !hasOption(c.Options, c.Value) {
			t.Errorf("%s: value %q is not among its options", c.Name, c.Value)
		}
		q.Set(c.Name, c.Value)
	}
	// The form's values, submitted as they stand, give the scenario back.
	got, err := scenario.FromQuery(q)
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Errorf("FromQuery(the form) = %+v, %v; want %+v", got, err, s)
	}
}

func TestAlgorithmsFollowTheOperation(t *testing.T) {
	s := scenario.Default()
	s.Strategy, s.Collective.Op, s.Collective.Algorithm = nccltest.Name, "broadcast", "binomial"
	for _, c := range Controls(s) {
		if c.Name != "algo" {
			continue
		}
		var vs []string
		for _, o := range c.Options {
			vs = append(vs, o.Value)
		}
		if !slices.Equal(vs, []string{"auto", "binomial", "chain"}) {
			t.Errorf("algorithms for broadcast: %v", vs)
		}
	}
}

func TestMetrics(t *testing.T) {
	m := MetricsOf(simulate(t, "gpus=8"))
	if len(m.GPUs) != 8 || len(m.Collectives) != 1 || m.Iteration == "" || m.Collectives[0].BusBW == "" {
		t.Errorf("MetricsOf = %+v", m)
	}
}

func TestShortFormats(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Duration(10056534), "10.1ms"},
		{Duration(999), "999ns"},
		{Duration(4056534), "4.06ms"},
		{Duration(74592), "74.6µs"},
		{Duration(3 * units.Second), "3.00s"},
		{Rate(66.17359943242187e9), "66.2GB/s"},
		{Rate(99.9e9), "99.9GB/s"},
		{Rate(150e6), "150MB/s"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestHelpTextShapesNewFields(t *testing.T) {
	for _, tc := range []struct {
		help string
		want []string
	}{
		{"bf16 or fp16", []string{"bf16", "fp16"}},
		{"gpipe, 1f1b, zb-v or dualpipev", []string{"gpipe", "1f1b", "zb-v", "dualpipev"}},
		{"true or false", []string{"true", "false"}},
		{"adam", nil},
		{"e.g. 256MiB", nil},
		{"dimensions innermost first, e.g. tp,cp,pp,dp", nil},
	} {
		if got := enumHelp(tc.help); !slices.Equal(got, tc.want) {
			t.Errorf("enumHelp(%q) = %q, want %q", tc.help, got, tc.want)
		}
	}
	c := Control{Name: "new_count", Help: "a whole number", Kind: "text"}
	shape(&c, scenario.Default())
	if c.Kind != "number" {
		t.Errorf("a whole number: kind %q, want number", c.Kind)
	}
	if got := labelOf(scenario.Param{Name: "mbs", Key: "parallel.micro_batch_size"}); got != "Micro batch size" {
		t.Errorf("labelOf = %q", got)
	}
}
