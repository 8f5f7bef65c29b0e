#!/usr/bin/env bash
# build.sh — the one entry point of ParaPlay.
#
#   ./build.sh build   build the wasm app and render the site into site/public
#   ./build.sh serve   build, then serve site/public on http://127.0.0.1:${PORT:-8080}
#   ./build.sh test    gofmt, go vet, go test, paraplay validate, wasm + site build, browser tests
#                      (their full log: build/browser-test.log)
#   ./build.sh bench   the benchmarks (not part of test: they take a while)
#   ./build.sh clean   remove build output
set -euo pipefail
cd "$(dirname "$0")"

OUT=site/public
# The wasm's standing budget: 4 MB gzipped (gzip -9).
WASM_BUDGET=4000000
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

say() { printf '\n== %s\n' "$*"; }

need_go() {
	command -v go >/dev/null || { echo "build.sh: Go 1.26 is required (go not found on PATH)" >&2; exit 1; }
}

build_site() {
	say "site: rendering docs/ into $OUT"
	# KaTeX typesets the articles' math at build time (site/package.json).
	if [ ! -d site/node_modules/katex ]; then
		command -v npm >/dev/null || { echo "build.sh: Node.js and npm are required for the site's math (KaTeX): apt-get install nodejs npm" >&2; exit 1; }
		(cd site && npm ci --no-audit --no-fund)
	fi
	go run ./site/cmd/sitegen -docs docs -out "$OUT"
}

# WASM_COLD lists the packages of the wasm that run only at start-up or on a
# person's input, never in a frame or a simulation's inner loop: Ebitengine's
# shader compiler (go/parser, text/template, regexp, math/big) and its PNG
# and zip code, and the playground's URL and control handling, once a run.
# They are compiled without inlining (-l), which keeps each call a call: the
# wasm shrinks by about 120 KB gzip (inlined copies, and the inline trees the
# pclntab keeps for them). A package compiled with -l also exports nothing
# to inline, so none that a frame or a simulation calls into is listed:
# sim/scenario (13 KB more) and Ebitengine's shaderir, which its draw calls
# use, keep inlining, as do fmt, reflect and time (89 KB more), which format
# captions and labels.
WASM_COLD=(
	'go/...' math/big 'text/...' regexp 'regexp/...' archive/zip 'compress/...'
	'net/...' 'encoding/...' 'hash/...' 'golang.org/x/text/...'
	github.com/hajimehoshi/ebiten/v2/internal/shader
	github.com/hajimehoshi/ebiten/v2/internal/shaderir/glsl
	github.com/hajimehoshi/ebiten/v2/internal/builtinshader
	github.com/hajimehoshi/ebiten/v2/internal/png
	paraplay/wasm/playground
	paraplay/sim/jsonout
)

build_wasm() {
	say "wasm: building $OUT/paraplay.wasm"
	mkdir -p "$OUT"
	local start=$SECONDS
	local cold=() p
	for p in "${WASM_COLD[@]}"; do cold+=("-gcflags=$p=-l"); done
	GOOS=js GOARCH=wasm go build -trimpath "${cold[@]}" -ldflags='-s -w' -o "$OUT/paraplay.wasm" ./wasm
	cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$OUT/wasm_exec.js"
	local size gz
	size=$(wc -c <"$OUT/paraplay.wasm")
	gz=$(gzip -9 -c "$OUT/paraplay.wasm" | wc -c)
	echo "paraplay.wasm: $((size / 1024)) KiB raw, $((gz / 1024)) KiB gzip ($gz B of the $WASM_BUDGET B budget), built in $((SECONDS - start)) s"
	if [ "$gz" -gt "$WASM_BUDGET" ]; then
		echo "build.sh: paraplay.wasm is $gz B gzipped, over the budget of $WASM_BUDGET B (README, Standards): a feature that breaks a budget pays for itself" >&2
		exit 1
	fi
}

build() {
	need_go
	build_site
	build_wasm
}

# ensure_chromium installs Debian's chromium when it is missing and we may.
ensure_chromium() {
	if [ -x "$CHROMIUM" ]; then return 0; fi
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		say "installing chromium (Debian package) for the browser tests"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq chromium >/dev/null
		return 0
	fi
	cat >&2 <<'MSG'
build.sh: the browser tests need Chromium at /usr/bin/chromium (or set CHROMIUM=/path).
Install it with:  sudo apt-get install chromium
MSG
	exit 1
}

test_all() {
	need_go
	say "gofmt"
	local unformatted
	unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './site/public/*'))
	if [ -n "$unformatted" ]; then
		echo "gofmt would change:"; echo "$unformatted"; exit 1
	fi
	say "go vet"
	go vet ./...
	go vet -tags browser ./wasm/browsertest/
	GOOS=js GOARCH=wasm go vet ./wasm/ ./sim/...
	say "sim imports no Ebitengine and no syscall/js"
	# Ebitengine must not be anywhere below sim; syscall/js (which the standard
	# library itself uses on js) must not be imported by sim's own code.
	if GOOS=js GOARCH=wasm go list -deps ./sim/... | grep -E 'hajimehoshi/ebiten' ||
		GOOS=js GOARCH=wasm go list -f '{{.ImportPath}}: {{join .Imports " "}}' ./sim/... | grep -E ' syscall/js( |$)'; then
		echo "a sim package imports Ebitengine or syscall/js"; exit 1
	fi
	say "sim/scenario imports no strategy (ARCHITECTURE.md)"
	# The input format sits below every strategy: a package that implements
	# the seam (it imports sim/strategy), the registry and the executor must
	# not be among scenario's dependencies.
	local strategies deps p
	strategies=$(go list -f '{{.ImportPath}}{{range .Imports}} {{.}}{{end}}' ./sim/... | awk '/ paraplay\/sim\/strategy( |$)/ {print $1}')
	deps=$(go list -deps ./sim/scenario)
	for p in $strategies paraplay/sim/strategy paraplay/sim/run paraplay/sim/taskgraph; do
		if grep -qx "$p" <<<"$deps"; then
			echo "sim/scenario depends on $p"; exit 1
		fi
	done
	say "go test"
	go test -count=1 ./...
	say "validation gallery (paraplay validate: enforced rows must hold their tolerance)"
	go run ./sim/cmd/paraplay validate
	say "sim builds for GOOS=js GOARCH=wasm"
	GOOS=js GOARCH=wasm go build ./sim/...
	build
	ensure_chromium
	say "browser tests (headless Chromium)"
	# The log (it holds local temporary paths) lives in this checkout's
	# build/, outside the served site/public, so that it is never published
	# and two checkouts testing at once do not overwrite each other's.
	mkdir -p build
	local log="$PWD/build/browser-test.log"
	PARAPLAY_SITE="$PWD/$OUT" CHROMIUM="$CHROMIUM" go test -count=1 -tags browser -timeout 30m -v ./wasm/browsertest/ 2>&1 | tee "$log" | grep -E '^(=== RUN|--- |PASS|FAIL|ok|\s+\S+_test.go)' || true
	if ! grep -q '^ok' "$log"; then
		echo "browser tests failed; full log in $log"; tail -40 "$log"; exit 1
	fi
	say "all tests passed"
}

# bench_browser measures the app in headless Chromium: frames per second of
# the largest scenarios, time to first frame against a minimal Ebitengine
# page built the same way (wasm/minimal), and the wasm's sizes.
bench_browser() {
	build
	ensure_chromium
	say "wasm sizes"
	mkdir -p "$OUT/bench"
	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$OUT/bench/minimal.wasm" ./wasm/minimal
	cp wasm/minimal/minimal.html "$OUT/bench/"
	local f
	for f in "$OUT/paraplay.wasm" "$OUT/bench/minimal.wasm"; do
		local br="n/a (apt-get install brotli)"
		if command -v brotli >/dev/null; then br="$(($(brotli -q 11 -c "$f" | wc -c) / 1024)) KiB"; fi
		echo "$(basename "$f"): $(($(wc -c <"$f") / 1024)) KiB raw, $(($(gzip -9 -c "$f" | wc -c) / 1024)) KiB gzip, brotli $br"
	done
	say "browser benchmarks (headless Chromium, software WebGL, 1280×800)"
	PARAPLAY_BENCH=1 PARAPLAY_SITE="$PWD/$OUT" CHROMIUM="$CHROMIUM" go test -count=1 -tags browser -run 'TestBench' -v -timeout 20m ./wasm/browsertest/ |
		grep -E 'frames/s|first frame| ms$|load average|^(--- |ok|FAIL)'
	rm -rf "$OUT/bench"
}

case "${1:-}" in
build) build ;;
serve)
	build
	say "serving on http://127.0.0.1:${PORT:-8080}/ (Ctrl-C stops)"
	exec go run ./site/cmd/serve -dir "$OUT" -addr "127.0.0.1:${PORT:-8080}"
	;;
test) test_all ;;
bench)
	need_go
	go test -run '^$' -bench . -benchmem ./...
	bench_browser
	;;
clean)
	rm -rf "$OUT" build
	;;
*)
	sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
