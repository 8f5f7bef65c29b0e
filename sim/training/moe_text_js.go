//go:build js

package training

import (
	"io"

	"paraplay/sim/moe"
)

// The browser prints no summary text: the routing's lines (moe_text.go)
// would only grow the download.

// WriteText prints nothing in the browser.
func (r MoE) WriteText(io.Writer) {}

func routingName(moe.Routing) string { return "" }
