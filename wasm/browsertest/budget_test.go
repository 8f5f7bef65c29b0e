//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestTooLarge: links of issue 19's audit that froze or crashed the tab
// are refused before they run, the canvas naming the field to change.
func TestTooLarge(t *testing.T) {
	long := "model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=8&strategy=training"
	tests := []struct {
		name, query, want, shot string
	}{
		{"checkpoint", long + "&fail_duration=365d&ckpt_interval=1us", "recovery.checkpoint_interval", "paraplay-too-large-checkpoint.png"},
		{"ring", "gpu=h100-sxm&nodes=64&gpus_per_node=8&chunks=64", "collective.chunks", "paraplay-too-large-ring.png"},
	}
	base := serve(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, con := browser(t)
			open(t, ctx, base, "play.html?"+tt.query)
			waitFor(t, ctx, "the error state", `window.paraplay.state === "error"`)
			st := state(t, ctx)
			if !strings.Contains(st.Error, tt.want) || !strings.Contains(st.Error, "the browser allows") {
				t.Errorf("error %q does not name %s and the browser's budget", st.Error, tt.want)
			}
			t.Logf("error shown: %q", st.Error)
			assertDrawn(t, screenshot(t, ctx, tt.shot), 10)
			for _, e := range con.list() {
				t.Errorf("console: %s", e)
			}
		})
	}
}
