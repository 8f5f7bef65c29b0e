package workload

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestPresetsValidate(t *testing.T) {
	for i, m := range Models() {
		if err := m.Validate(); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
		if (m.Source == "" && runtime.GOOS != "js") || m.PublishedParams == 0 { // the browser carries no sources
			t.Errorf("%s: preset without a source or a published parameter count", m.Name)
		}
		if i > 0 && Models()[i-1].Name >= m.Name {
			t.Errorf("names not sorted and unique: %q then %q", Models()[i-1].Name, m.Name)
		}
		got, err := LookupModel(m.Name)
		if err != nil || got.Name != m.Name {
			t.Errorf("LookupModel(%q) = %v, %v", m.Name, got.Name, err)
		}
	}
}

func TestRequiredPresetsExist(t *testing.T) {
	for _, name := range []string{
		"gpt3-1.3b", "gpt3-175b", "llama3-8b", "llama3-70b", "llama3-405b", "mixtral-8x7b",
		"megatron-1.7b", "megatron-3.6b", "megatron-7.5b", "megatron-18b", "megatron-39b",
		"megatron-76b", "megatron-145b", "megatron-310b", "megatron-530b", "megatron-1t",
	} {
		if _, err := LookupModel(name); err != nil {
			t.Error(err)
		}
	}
	_, err := LookupModel("gpt5")
	if err == nil || !strings.Contains(err.Error(), "llama3-8b") {
		t.Errorf("unknown model error %v should list the known names", err)
	}
}

func TestValidateNamesFieldAndRange(t *testing.T) {
	base, _ := LookupModel("llama3-8b")
	tests := []struct {
		name   string
		change func(*Model)
		want   string
	}{
		{"hidden/heads", func(m *Model) { m.Heads = 30 }, "hidden 4096 must be divisible by heads 30"},
		{"layers", func(m *Model) { m.Layers = 0 }, "layers = 0, want at least 1"},
		{"kv_heads", func(m *Model) { m.KVHeads = 5 }, "kv_heads = 5"},
		{"ffn", func(m *Model) { m.FFN = "relu" }, `ffn "relu"`},
		{"swiglu width", func(m *Model) { m.FFNHidden = 0 }, "ffn_hidden must be set"},
		{"norm", func(m *Model) { m.Norm = "batchnorm" }, `norm "batchnorm"`},
		{"position", func(m *Model) { m.Position = "alibi" }, `position "alibi"`},
		{"top_k", func(m *Model) { m.MoE.Experts, m.MoE.TopK = 8, 9 }, "top_k = 9, want 1..experts (8)"},
		{"top_k dense", func(m *Model) { m.MoE.TopK = 2 }, "want experts ≥ 2"},
		{"router", func(m *Model) { m.MoE = MoE{Experts: 8, TopK: 2, Router: "hash"} }, `moe.router "hash"`},
		{"groups", func(m *Model) { m.MoE = MoE{Experts: 8, TopK: 2, Router: RouterGroupLimited, Groups: 3} }, "groups = 3, want a divisor of experts (8)"},
		{"mla", func(m *Model) { m.MLA = MLA{KVLoRARank: 512} }, "mla: kv_lora_rank 512"},
		{"mtp dense", func(m *Model) { m.MTP = 1 }, "mtp = 1 needs a mixture of experts"},
		{"name", func(m *Model) { m.Name = "Llama 3" }, "name"},
		{"seq_len", func(m *Model) { m.SeqLen = -1 }, "seq_len = -1"},
	}
	for _, tc := range tests {
		m := base
		tc.change(&m)
		err := m.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

func TestValidateSplit(t *testing.T) {
	m, _ := LookupModel("llama3-8b")
	tests := []struct {
		tp, cp int
		ok     bool
	}{{1, 1, true}, {8, 1, true}, {8, 4, true}, {16, 1, false}, {3, 1, false}, {1, 3, false}, {0, 1, false}}
	for _, tc := range tests {
		if got := m.ValidateSplit(tc.tp, tc.cp) == nil; got != tc.ok {
			t.Errorf("ValidateSplit(%d, %d) ok = %v, want %v", tc.tp, tc.cp, got, tc.ok)
		}
	}
}

// GPT-NeoX-20B's exact count, tensor by tensor, is the released model's:
// 44·(12h² + 13h) + 2·50,432·h (untied) + 2h (final LayerNorm) with
// h = 6,144 is 20,554,567,680, as the model card prints.
func TestNeoX20BParams(t *testing.T) {
	m, err := LookupModel("gpt-neox-20b")
	if err != nil {
		t.Fatal(err)
	}
	h := 6144.0
	want := 44*(12*h*h+13*h) + 2*50432*h + 2*h
	if got := float64(Params(m).Total()); got != want || want != 20554567680 {
		t.Errorf("Params(gpt-neox-20b) = %.0f, want %.0f (the card's 20,554,567,680)", got, want)
	}
}

// TestModelHoldsNoReference: LookupModel hands out copies of a catalog
// built once (presets.go), which is safe only while a Model holds no
// slice, map, pointer or other reference a caller could change through.
func TestModelHoldsNoReference(t *testing.T) {
	var check func(path string, ty reflect.Type)
	check = func(path string, ty reflect.Type) {
		switch ty.Kind() {
		case reflect.Struct:
			for i := range ty.NumField() {
				check(path+"."+ty.Field(i).Name, ty.Field(i).Type)
			}
		case reflect.Array:
			check(path+"[]", ty.Elem())
		case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer:
			t.Errorf("%s is a %s: a copy of a catalog Model would share it; copy it in LookupModel", path, ty.Kind())
		}
	}
	check("Model", reflect.TypeOf(Model{}))
	a, _ := LookupModel("llama3-8b")
	a.Layers, a.Name = 1, "changed"
	if b, err := LookupModel("llama3-8b"); err != nil || b.Layers != 32 {
		t.Errorf("after changing a copy, LookupModel gives %d layers (%v); want 32", b.Layers, err)
	}
}
