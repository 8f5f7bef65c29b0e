//go:build js

package workload

// The browser never shows a preset's source (sources.go), so it carries
// none: the strings would only grow the download.
const (
	srcGPT3, srcGPT3XL, srcMegatron, srcMixtral, srcNeoX = "", "", "", "", ""
	srcLlama8, srcLlama70, srcLlama405                   = "", "", ""
	srcMixtral22, srcDeepSeekV3, srcQwen3, srcGPTOSS     = "", "", "", ""
)
