//go:build browser

// Package browsertest drives the built site in headless Chromium: the wasm
// app must draw, react to the keyboard, explain bad parameters and run
// inside an article's iframe. Run it after building the site:
//
//	PARAPLAY_SITE=site/public go test -tags browser ./wasm/browsertest/ -count=1
//
// CHROMIUM overrides the browser (default /usr/bin/chromium). Screenshots
// are saved to os.TempDir() as paraplay-*.png for people to look at.
package browsertest
