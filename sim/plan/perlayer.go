//go:build !js

package plan

// perLayerSearch says Config.ZeROLayers is searched: on the host only;
// the browser's planner leaves per-layer sharding out to keep the
// download small (perlayer_js.go).
const perLayerSearch = true
