//go:build js

package plan

// perLayerSearch is false in the browser: its planner does not search
// per-layer sharding (Config.ZeROLayers), which the host's does.
const perLayerSearch = false
