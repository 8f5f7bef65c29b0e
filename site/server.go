package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// FileServer serves the files under dir, as a static host would: the right
// MIME type for every file the site uses (browsers refuse to stream-compile
// wasm served as anything but application/wasm), gzip for text and wasm
// when the client accepts it, index.html for directories, and no dotfiles.
// Compressed bodies are kept in memory, keyed by file and modification
// time, so a 15 MB wasm is compressed once, not on every reload.
func FileServer(dir string) http.Handler {
	return &fileServer{root: http.Dir(dir), gz: map[string]gzipped{}}
}

type fileServer struct {
	root http.FileSystem
	mu   sync.Mutex
	gz   map[string]gzipped // by cleaned URL path
}

type gzipped struct {
	mod  time.Time
	size int64
	body []byte
}

func (s *fileServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := path.Clean("/" + r.URL.Path)
	if strings.Contains(name, "/.") {
		http.NotFound(w, r)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/") {
		name = path.Join(name, "index.html")
	}
	f, err := s.root.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	if info.IsDir() {
		// Redirect to the cleaned absolute path: a relative "posters/"
		// sent for /posters/. would resolve to /posters/posters/.
		target := name + "/"
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusMovedPermanently)
		return
	}
	s.serveFile(w, r, name, info, f)
}

func (s *fileServer) serveFile(w http.ResponseWriter, r *http.Request, name string, info os.FileInfo, f http.File) {
	h := w.Header()
	ctype, compressible := contentType(name)
	h.Set("Content-Type", ctype)
	if strings.HasPrefix(ctype, "text/html") {
		// The same policy every page declares in its <meta>; the header
		// also covers pages built before the meta existed.
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
	}
	if strings.Contains(r.Header.Get("Range"), ",") {
		// Serve several ranges as the whole file: each part of a
		// multipart/byteranges reply carries its own headers, so
		// "bytes=0-0,2-2,4-4,…" made about 16 bytes of reply per byte
		// asked for. Ignoring a Range is allowed (RFC 9110 §14.2); no
		// client of the site asks for more than one.
		r = r.Clone(r.Context())
		r.Header.Del("Range")
	}
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache") // revalidate: the site changes with every build
	if !compressible || info.Size() < 1024 {
		http.ServeContent(w, r, name, info.ModTime(), f)
		return
	}
	h.Add("Vary", "Accept-Encoding")
	if !acceptsGzip(r) {
		http.ServeContent(w, r, name, info.ModTime(), f)
		return
	}
	body, err := s.compressed(name, info, f)
	if err != nil {
		http.Error(w, "cannot read file", http.StatusInternalServerError)
		return
	}
	h.Set("Content-Encoding", "gzip")
	http.ServeContent(w, r, name, info.ModTime(), bytes.NewReader(body))
}

// compressed returns the gzipped file, from the cache if the file has not
// changed since it was compressed.
func (s *fileServer) compressed(name string, info os.FileInfo, f io.Reader) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.gz[name]; ok && c.mod.Equal(info.ModTime()) && c.size == info.Size() {
		return c.body, nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	if _, err := io.Copy(zw, f); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	s.gz[name] = gzipped{mod: info.ModTime(), size: info.Size(), body: buf.Bytes()}
	return buf.Bytes(), nil
}

// contentType gives the MIME type of a file of the site by its extension,
// and whether compressing it pays off. It does not consult the system's
// mime.types, whose contents differ between machines (some lack wasm).
func contentType(name string) (ctype string, compressible bool) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".html", ".htm":
		return "text/html; charset=utf-8", true
	case ".css":
		return "text/css; charset=utf-8", true
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8", true
	case ".json", ".map":
		return "application/json", true
	case ".wasm":
		return "application/wasm", true
	case ".svg":
		return "image/svg+xml", true
	case ".txt", ".md":
		return "text/plain; charset=utf-8", true
	case ".xml":
		return "application/xml", true
	case ".png":
		return "image/png", false
	case ".jpg", ".jpeg":
		return "image/jpeg", false
	case ".gif":
		return "image/gif", false
	case ".webp":
		return "image/webp", false
	case ".ico":
		return "image/x-icon", false
	case ".woff2":
		return "font/woff2", false
	}
	return "application/octet-stream", false
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip
// (and does not refuse it with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
