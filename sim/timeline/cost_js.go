//go:build js

package timeline

// summarizeCost prices nothing in the browser, which shows no cost yet
// (the wasm budget; cost_host.go is the host's).
func (tl *Timeline) summarizeCost(*Summary) {}
