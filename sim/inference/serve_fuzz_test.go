package inference

import (
	"net/url"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
)

// FuzzInferenceQuery decodes serving scenarios from URLs: whatever the
// decoder accepts must simulate without an error or a panic, to a timeline
// that passes Validate (Simulate checks it). CI runs the seeds only.
func FuzzInferenceQuery(f *testing.F) {
	base := "strategy=inference&gpu=h100-sxm&model=llama3-8b&prompt=64&output=3&requests=4"
	for _, q := range []string{
		base + "&gpus=4&pp=4",
		base + "&gpus=4&pp=2&tp=2&sampling=cpu&async_host=true&host_time=100us",
		base + "&gpus=4&dp=4&shared_weights=fetch",
		base + "&gpus=2&dp=2&shared_weights=ship&sampling=cpu",
		base + "&gpus=2&pp=2&inf_microbatches=3&send_overhead=1ms&sample_time=0s",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		s, err := scenario.FromQuery(q)
		if err != nil || s.Strategy != Name {
			return
		}
		if in := SettingsOf(&s); in.Output*in.Requests > 256 || in.Prompt > 4096 {
			return // keep each fuzz run small
		}
		if _, err := strategytest.Run(Simulate, s); err != nil {
			t.Errorf("Simulate(%q): %v", raw, err)
		}
	})
}
