#!/bin/sh
# subset.sh remakes goregular-subset.ttf from the Go Regular font that
# golang.org/x/image ships (see LICENSE). It is run by hand when the set of
# characters changes, never by the build: it needs fontTools (Debian:
# apt-get install python3-fonttools). The subset keeps the glyph outlines and
# advances unchanged and drops the TrueType hinting, which the x/image
# rasterizer never runs, and the scripts ParaPlay never draws (Cyrillic, box
# drawing, dingbats): the browser build carries about 45 KB less gzip.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/main.go" <<'GO'
package main

import (
	"os"

	"golang.org/x/image/font/gofont/goregular"
)

func main() { os.Stdout.Write(goregular.TTF) }
GO
(cd ../../.. && go run "$tmp/main.go") >"$tmp/goregular.ttf"
/usr/bin/python3 -m fontTools.subset "$tmp/goregular.ttf" \
	--unicodes='U+0020-007E,U+00A0-017F,U+0370-03FF,U+2000-23FF,U+25A0-25FF,U+FFFD' \
	--no-hinting --drop-tables+=gasp --name-IDs=0,1,2 --layout-features='' \
	--output-file=goregular-subset.ttf
