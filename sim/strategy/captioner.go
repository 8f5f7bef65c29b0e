//go:build !js

// The site's demos have captions; the browser app shows none, so the wasm
// build leaves every strategy's caption code out (captioner_js.go): with
// it, the download grew by about 0.7% gzipped. A strategy's caption.go
// carries the same build constraint.

package strategy

import (
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// Captioner is the caption half of a Strategy.
type Captioner interface {
	// Caption lists the parts of the line of key numbers under a demo of
	// s: figures of the run tl (summarised as sum), and each closed form
	// the strategy knows beside the figure it predicts.
	Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]Part, error)
}
