//go:build js

package opgraph

import (
	"errors"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// The 3-D U-Net and LAMP's split run on the host only (paraplay run, the
// site's build-time demos): the browser leaves them out for the 12 KB
// gzip they would add to the download (unet3d.go, lamp.go).

// errUNet is the browser's answer to graph.model unet3d.
var errUNet = errors.New("graph.model: is unet3d, which runs on the host only (paraplay run); allowed in the browser resnet50, seq2seq-lstm")

func unetScenario(Settings) (Graph, error) { return Graph{}, errUNet }

func hasSkips(Graph) bool { return false }

func cutCount(g Graph) int { return len(cuts(g)) }

func (Run) checkFit(Graph, hw.GPU) error { return nil }

func simulateLAMP(Graph, Run, hw.GPU, scenario.Scenario) (*timeline.Timeline, error) {
	return nil, errUNet
}

func conv3DParams(Op) int64 { return 0 }

func conv3DMACs(Op, int64) int64 { return 0 }
