package site

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestFileServerTypesAndGzip(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("ring all-reduce ", 200) // above the compression threshold
	writeFiles(t, dir, map[string]string{
		"index.html":      "<!doctype html>" + big,
		"play.html":       "<!doctype html>",
		"style.css":       "body{}",
		"wasm_exec.js":    "//" + big,
		"main.wasm":       "\x00asm" + big,
		"poster.svg":      "<svg/>",
		"shot.png":        "\x89PNG" + big,
		"docs/index.html": "nested",
		".git/config":     "secret",
	})
	srv := httptest.NewServer(FileServer(dir))
	defer srv.Close()

	tests := []struct {
		path, acceptEncoding string
		wantStatus           int
		wantType, wantEnc    string
	}{
		{"/", "", 200, "text/html; charset=utf-8", ""},
		{"/", "gzip, deflate, br", 200, "text/html; charset=utf-8", "gzip"},
		{"/index.html", "gzip;q=0", 200, "text/html; charset=utf-8", ""},
		{"/play.html", "gzip", 200, "text/html; charset=utf-8", ""}, // too small to bother
		{"/style.css", "", 200, "text/css; charset=utf-8", ""},
		{"/wasm_exec.js", "gzip", 200, "text/javascript; charset=utf-8", "gzip"},
		{"/main.wasm", "gzip", 200, "application/wasm", "gzip"},
		{"/main.wasm", "", 200, "application/wasm", ""},
		{"/poster.svg", "", 200, "image/svg+xml", ""},
		{"/shot.png", "gzip", 200, "image/png", ""}, // already compressed
		{"/docs/", "", 200, "text/html; charset=utf-8", ""},
		{"/.git/config", "", 404, "", ""},
		{"/../../etc/passwd", "", 404, "", ""},
		{"/missing.html", "", 404, "", ""},
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.acceptEncoding, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+tt.path, nil)
			if tt.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tt.acceptEncoding)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status: got %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if tt.wantStatus != 200 {
				return
			}
			if got := resp.Header.Get("Content-Type"); got != tt.wantType {
				t.Errorf("Content-Type: got %q, want %q", got, tt.wantType)
			}
			if got := resp.Header.Get("Content-Encoding"); got != tt.wantEnc {
				t.Errorf("Content-Encoding: got %q, want %q", got, tt.wantEnc)
			}
			var body io.Reader = resp.Body
			if tt.wantEnc == "gzip" {
				zr, err := gzip.NewReader(resp.Body)
				if err != nil {
					t.Fatal(err)
				}
				body = zr
			}
			if b, err := io.ReadAll(body); err != nil || len(b) == 0 {
				t.Errorf("body: %d bytes, %v", len(b), err)
			}
		})
	}
}

func TestFileServerRedirectsDirectoryAndRejectsPost(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"docs/index.html": "x"})
	h := FileServer(dir)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/docs", nil))
	if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/docs/" {
		t.Errorf("GET /docs: got %d Location %q, want 301 /docs/", rec.Code, rec.Header().Get("Location"))
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/docs/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: got %d, want 405", rec.Code)
	}
}

func TestFileServerRedirectsToCleanedPath(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"posters/index.html": "x", "docs/a/index.html": "y"})
	h := FileServer(dir)
	tests := []struct{ path, wantLocation string }{
		{"/posters", "/posters/"},
		{"/posters/.", "/posters/"},
		{"/posters/./.", "/posters/"},
		{"/docs/a/..", "/docs/"},
		{"/docs/a/../a", "/docs/a/"},
		{"//docs", "/docs/"},
		{"/docs?x=1", "/docs/?x=1"},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != tt.wantLocation {
			t.Errorf("GET %s: got %d Location %q, want 301 %q", tt.path, rec.Code, rec.Header().Get("Location"), tt.wantLocation)
		}
	}
}

func TestFileServerServesOneRangeAtMost(t *testing.T) {
	dir := t.TempDir()
	body := strings.Repeat("0123456789", 100) // 1000 bytes
	writeFiles(t, dir, map[string]string{"shot.png": body, "page.html": body})
	h := FileServer(dir)
	many := "bytes=0-0"
	for i := 2; i < 1000; i += 2 {
		many += "," + strconv.Itoa(i) + "-" + strconv.Itoa(i)
	}
	tests := []struct {
		name, path, rangeHeader string
		wantStatus, wantLen     int
	}{
		{"single range", "/shot.png", "bytes=10-19", http.StatusPartialContent, 10},
		{"two ranges", "/shot.png", "bytes=0-9,20-29", http.StatusOK, 1000},
		{"500 one-byte ranges", "/shot.png", many, http.StatusOK, 1000},
		{"ranges of gzipped html", "/page.html", "bytes=0-0,2-2,4-4", http.StatusOK, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.path, nil)
			req.Header.Set("Range", tt.rangeHeader)
			req.Header.Set("Accept-Encoding", "gzip")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status: got %d, want %d", rec.Code, tt.wantStatus)
			}
			if strings.HasPrefix(rec.Header().Get("Content-Type"), "multipart/") {
				t.Errorf("Content-Type: got %q, want no multipart reply", rec.Header().Get("Content-Type"))
			}
			if got := rec.Body.Len(); got > len(body) || (tt.wantLen >= 0 && got != tt.wantLen) {
				t.Errorf("body: got %d bytes, want %d (never more than the file's %d)", got, tt.wantLen, len(body))
			}
		})
	}
}

func TestFileServerSendsCSPOnPages(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"index.html": "<!doctype html>", "style.css": "body{}"})
	h := FileServer(dir)
	for path, want := range map[string]string{"/": ContentSecurityPolicy, "/style.css": ""} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if got := rec.Header().Get("Content-Security-Policy"); got != want {
			t.Errorf("GET %s: Content-Security-Policy %q, want %q", path, got, want)
		}
	}
}
