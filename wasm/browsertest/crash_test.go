//go:build browser

package browsertest

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestCompareDepthOne opens a compare link nested four levels deep (the
// audit's 513-character link, which started 16 apps): the page starts two
// apps, and each refuses its nested query over its canvas, naming a=.
func TestCompareDepthOne(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	link := "strategy=collective&gpus=8"
	for i := 0; i < 4; i++ {
		link = url.Values{"a": {link}, "b": {link}}.Encode()
	}
	t.Logf("the link's query is %d characters", len(link))
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/play.html?"+link)); err != nil {
		t.Fatal(err)
	}
	sides := `[...document.querySelectorAll("#cmp-frames iframe")].map(f => f.contentWindow.paraplay)`
	waitFor(t, ctx, "both sides' first frames", `(() => { const p = `+sides+`; return p.length === 2 && p.every(x => x && x.frames > 0); })()`)
	for i, e := range eval[[]string](t, ctx, sides+`.map(p => { const r = p.current(); return r.ok ? "ran" : r.errorTitle + ": " + r.error; })`) {
		if !strings.Contains(e, "does not nest") || !strings.Contains(e, "a:") {
			t.Errorf("side %d: %q, want the nested compare refused, naming a", i, e)
		}
	}
	// Only the two sides run: neither of them holds frames of its own.
	if n := eval[int](t, ctx, `[...document.querySelectorAll("#cmp-frames iframe")].reduce((n, f) => n + f.contentDocument.querySelectorAll("iframe").length, 0)`); n != 0 {
		t.Errorf("the sides hold %d iframes, want 0 (compare mode is one level deep)", n)
	}
	waitFor(t, ctx, "the captions' reasons", `[...document.querySelectorAll("#cmp-frames figcaption")].every(c => c.textContent.includes("does not nest"))`)
	assertDrawn(t, screenshot(t, ctx, "paraplay-compare-nested.png"), 20)
	noConsoleErrors(t, con)
}

// crashingGo replaces wasm_exec.js's Go, on pages whose address sets
// gpus=512, by one that ends as the Go runtime ends when it runs out of
// memory: its last words on stderr, then exit code 2. A real run that
// large is refused by the work budget before it starts, so the crash path
// needs this stand-in to be tested at all.
const crashingGo = `(() => {
  if (!/(^|[?&])gpus=512(&|$)/.test(location.search)) return;
  let real;
  Object.defineProperty(globalThis, "Go", { configurable: true, get() { return real; }, set(G) {
    real = class extends G {
      async run() {
        globalThis.fs.writeSync(2, new TextEncoder().encode(
          "runtime: out of memory: cannot allocate 4194304-byte block (2143289344 in use)\nfatal error: out of memory\n"));
        this.exited = true;
        this.exit(2);
      }
    };
  } });
})()`

// TestCrashPage crashes the app on a run and checks the page: it says
// which run stopped the demo and why, as text (the address's markup stays
// inert), and a reload offers the defaults instead of crashing again; the
// link to the defaults starts the app.
func TestCrashPage(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: crashingGo})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	q := "strategy=collective&gpus=512&chunks=64&x=" + url.QueryEscape(`<img src=x onerror="window.pwned=1">`)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/play.html?"+q)); err != nil {
		t.Fatal(err)
	}
	problem := `document.getElementById("problem")`
	waitFor(t, ctx, "the crash message", problem+`.hidden === false`)
	text := eval[string](t, ctx, problem+`.innerText`)
	t.Logf("after the crash: %q", text)
	for _, want := range []string{"This run stopped the demo", "more memory", "gpus=512", "chunks=64", "out of memory: cannot allocate", "Open the default demo", `<img src=x`} {
		if !strings.Contains(text, want) {
			t.Errorf("the crash message lacks %q", want)
		}
	}
	if eval[bool](t, ctx, problem+`.querySelector("img") !== null || window.pwned === 1`) {
		t.Error("the address's markup became an element")
	}
	screenshot(t, ctx, "paraplay-crash.png")

	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the offer after reloading", problem+`.hidden === false && `+problem+`.innerText.includes("Last time")`)
	if n := eval[int](t, ctx, `window.paraplay ? 1 : 0`); n != 0 {
		t.Error("the reloaded page ran the crashing scenario again")
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-crash-reloaded.png"), 5)

	// Follow the link as a reader would (a click would race the poll below
	// with the navigation it starts).
	href := eval[string](t, ctx, `document.querySelector("#problem .actions a").href`)
	if err := chromedp.Do(ctx, chromedp.Navigate(href)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the defaults' first frame", `location.search === "" && window.paraplay && window.paraplay.frames > 0`)
	if eval[bool](t, ctx, problem+`.hidden === false`) {
		t.Error("the default demo still shows the crash")
	}
	for _, e := range con.list() {
		if !strings.Contains(e, "exit code") { // wasm_exec.js reports the exit
			t.Errorf("console: %s", e)
		}
	}
}
