//go:build js

package opgraph

import (
	"errors"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// The searches (graph.search) and their models run on the host only
// (paraplay run, the site's build-time demos), search.go.

// errSearch is the browser's answer to graph.search and its models.
var errSearch = errors.New("graph.search: runs on the host only (paraplay run), as do graph.model vgg16 and inception3a; allowed in the browser empty")

func searchModel(Settings) (Graph, error) { return Graph{}, errSearch }

func checkSearch(y Settings) error {
	if y.Search != "" {
		return errSearch
	}
	return nil
}

func simulateSearch(Graph, Run, hw.GPU, scenario.Scenario) (*timeline.Timeline, error) {
	return nil, errSearch
}
