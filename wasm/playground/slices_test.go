package playground

import (
	"net/url"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// controlsOf is the form for a query (whatever its errors: the form shows
// a bad address too), by control name.
func controlsOf(t testing.TB, query string) map[string]Control {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := scenario.FromQuery(q)
	out := map[string]Control{}
	for _, c := range Controls(s) {
		out[c.Name] = c
	}
	return out
}

func optionsOf(c Control) []string {
	var vs []string
	for _, o := range c.Options {
		vs = append(vs, o.Value)
	}
	return vs
}

func setsOf(c Control, value string) string {
	for _, o := range c.Options {
		if o.Value == value {
			return o.Sets
		}
	}
	return "(no option " + value + ")"
}

// TestSliceControls checks the form on a TPU slice: the slice select
// offers the pod's shapes, the mesh selects the divisors of the chips,
// the servers' keys are moot; and
// the accelerator select's TPU options carry the slice they take.
func TestSliceControls(t *testing.T) {
	cs := controlsOf(t, TPUMeshQuery)
	topo := cs["topology"]
	if topo.Kind != "select" || topo.Inactive || !strings.Contains(strings.Join(optionsOf(topo), " "), "2x2x1 2x2x2 2x2x4 2x4x4 4x4x4 4x4x8") {
		t.Errorf("slice select on v5p: kind %s inactive %v options %v", topo.Kind, topo.Inactive, optionsOf(topo))
	}
	if got := topo.Options[5].Label; got != "4x4x4 (64 chips)" {
		t.Errorf("the 4x4x4 option reads %q", got)
	}
	if got, want := strings.Join(optionsOf(cs["mesh_model"]), ","), "0,1,2,4,8,16,32,64"; got != want || cs["mesh_model"].Value != "4" {
		t.Errorf("mesh_model options %s (value %s), want %s (value 4)", got, cs["mesh_model"].Value, want)
	}
	if got := strings.Join(optionsOf(cs["mesh_layout"]), ","); got != ",xzy,yxz,yzx,zxy,zyx" {
		t.Errorf("3D layouts: %s", got)
	}
	for _, name := range []string{"nodes", "gpus_per_node", "link", "inter", "network", "gpus"} {
		if !cs[name].Inactive {
			t.Errorf("%s is active on a slice", name)
		}
	}
	for _, tc := range []struct{ query, option, want string }{
		{TPUMeshQuery, "tpu-v5p", "topology=4x4x4"}, // the slice fits: kept
		{TPUMeshQuery, "tpu-v5e", "topology=8x8"},   // 64 chips on a 2D pod
		{TPUMeshQuery, "tpu-v4", "topology=4x4x4"},  // fits v4's pod too
		{TPUMeshQuery, "h100-sxm", ""},              // GPUs: the page clears the slice
		{"gpu=h100-sxm&nodes=1&gpus_per_node=8", "tpu-v5e", "topology=2x4"},
		{"gpu=h100-sxm&nodes=1&gpus_per_node=8", "tpu-v5p", "topology=2x2x2"},
		{"gpu=h100-sxm&nodes=64&gpus_per_node=8", "tpu-v5e", "topology=16x16"}, // 512 GPUs: the pod's largest
		{"gpus=3", "tpu-v6e", "topology=2x2"},
	} {
		if got := setsOf(controlsOf(t, tc.query)["gpu"], tc.option); got != tc.want {
			t.Errorf("%s, picking %s: sets %q, want %q", tc.query, tc.option, got, tc.want)
		}
	}
	// On GPUs the slice's controls are moot; a 2D pod has two layouts.
	gpus := controlsOf(t, "gpu=h100-sxm&nodes=1&gpus_per_node=8")
	for _, name := range []string{"topology", "slices", "twisted", "wraparound", "mesh_data", "mesh_layout"} {
		if !gpus[name].Inactive {
			t.Errorf("%s is active on GPUs", name)
		}
	}
	if gpus["nodes"].Inactive {
		t.Error("GPUs: nodes inactive")
	}
	if got := strings.Join(optionsOf(controlsOf(t, "gpu=tpu-v5e&topology=16x2")["mesh_layout"]), ","); got != ",yx" {
		t.Errorf("2D layouts: %s", got)
	}
}

// TestSliceControlsBadAddress: an address's shape or mesh the lists lack
// is offered as it is (the error names it), and a slice too large for
// any pod lists no divisors (the lists stay bounded by the largest pod).
func TestSliceControlsBadAddress(t *testing.T) {
	cs := controlsOf(t, "gpu=tpu-v5e&topology=1024x1024x1024&mesh_model=3")
	if cs["topology"].Value != "1024x1024x1024" || !hasOption(cs["topology"].Options, "1024x1024x1024") {
		t.Errorf("slice select lost the address's value: %+v", cs["topology"])
	}
	if got := optionsOf(cs["mesh_model"]); len(got) != 2 || got[1] != "3" {
		t.Errorf("mesh_model options on an impossible slice: %v, want 0 and the address's 3", got)
	}
	q, _ := url.ParseQuery("gpu=tpu-v5e&topology=1024x1024x1024")
	if _, err := scenario.FromQuery(q); err == nil || !strings.Contains(err.Error(), "cluster.topology") {
		t.Errorf("error %v does not name cluster.topology", err)
	}
}

// FuzzSliceControls builds the form for fuzzed slice and mesh values: no
// panic, and every select offers its value.
func FuzzSliceControls(f *testing.F) {
	f.Add("tpu-v5p", "4x4x4", "2", "16", "4", "zxy")
	f.Add("tpu-v5e", "16x2", "0", "0", "16", "yx")
	f.Add("h100-sxm", "9x9x9", "-1", "1e9", "x", "xx")
	f.Fuzz(func(t *testing.T, gpu, topology, slices, fsdp, model, layout string) {
		q := url.Values{"gpu": {gpu}, "topology": {topology}, "slices": {slices}, "mesh_fsdp": {fsdp}, "mesh_model": {model}, "mesh_layout": {layout}}
		s, _ := scenario.FromQuery(q)
		for _, c := range Controls(s) {
			if c.Kind == "select" && !hasOption(c.Options, c.Value) {
				t.Fatalf("%v: %s's value %q is not among its options", q, c.Name, c.Value)
			}
		}
	})
}
