// Command serve serves the built site on the loopback interface only, with
// the MIME types and compression the browser app needs:
//
//	go run ./site/cmd/serve -dir site/public -addr 127.0.0.1:8080
//
// It refuses any address that is not a loopback one: this is a preview
// server for the author's own browser, not a host for the world.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"paraplay/site"
)

func main() {
	dir := flag.String("dir", "site/public", "directory to serve")
	addr := flag.String("addr", "127.0.0.1:8080", "loopback address to listen on")
	flag.Parse()
	if err := run(*dir, *addr); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

func run(dir, addr string) error {
	if err := checkLoopback(addr); err != nil {
		return err
	}
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("%w (build the site first: go run ./site/cmd/sitegen)", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           site.FileServer(dir),
		ReadHeaderTimeout: 10 * time.Second,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	log.Printf("serving %s on http://%s/", dir, ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// checkLoopback accepts only addresses whose host is a loopback IP or
// "localhost"; an empty host would listen on every interface.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("address %q is not a loopback address; use 127.0.0.1:PORT", addr)
}
