//go:build browser

package browsertest

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"paraplay/site"
)

// recordViolations runs in every frame before its own scripts (DevTools
// injects it, so the policy does not apply to it) and collects the frame's
// Content-Security-Policy violations in the top window, where the test
// reads them.
const recordViolations = `document.addEventListener("securitypolicyviolation", (e) => {
	let top = window;
	try { top = window.top; top.document; } catch (err) { top = window; }
	(top.__csp = top.__csp || []).push(e.effectiveDirective + " blocked " + (e.blockedURI || "inline") + " in " + location.pathname +
		" at " + e.sourceFile + ":" + e.lineNumber + (e.sample ? ": " + e.sample : ""));
});`

// TestSiteCSP loads the index (its hero demo plays), an article with demos
// (one is started), the playground, the embed page (its preview plays) and
// the lecture deck (its first demo slide), and checks that every page declares the site's policy and that
// nothing it loads breaks it: no violation, no console error. It first
// makes a violation on purpose, so that a silent detector cannot pass.
func TestSiteCSP(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: recordViolations})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	violations := func() []string {
		return eval[[]string](t, ctx, `window.__csp || []`)
	}
	pages := []struct {
		path  string
		ready func()
	}{
		{"index.html", func() {
			waitFor(t, ctx, "the hero demo to draw", `(() => { const f = document.querySelector(".hero iframe"); try { return f.contentWindow.paraplay.frames > 0; } catch (e) { return false; } })()`)
		}},
		{"ring-allreduce.html", func() {
			waitFor(t, ctx, "the play buttons", `document.querySelectorAll("figure.demo button.play:not([hidden])").length >= 2`)
			if err := chromedp.Do(ctx, chromedp.Click(`#demo-2 button.play`)); err != nil {
				t.Fatalf("pressing play: %v", err)
			}
			waitFor(t, ctx, "the demo to draw", `(() => { const f = document.querySelector("#demo-2 iframe"); try { return f.contentWindow.paraplay.frames > 0; } catch (e) { return false; } })()`)
			waitFor(t, ctx, "the formulas' fonts", `document.fonts.status === "loaded"`)
		}},
		{"validation.html", func() {
			waitFor(t, ctx, "the gallery's badges", `document.querySelectorAll("table.gallery .badge").length > 10`)
		}},
		{"play.html", func() {
			waitFor(t, ctx, "the first frame", `window.paraplay && window.paraplay.frames > 0`)
			waitFor(t, ctx, "the form", `document.documentElement.dataset.app === "started"`)
		}},
		{"embed.html?demo=" + "play.html%3Fgpus%3D8", func() {
			waitFor(t, ctx, "the preview to draw", `(() => { const f = document.getElementById("preview"); try { return f.contentWindow.paraplay.frames > 0; } catch (e) { return false; } })()`)
		}},
		{"lecture.html", func() {
			waitFor(t, ctx, "the first slide", `document.querySelector(".slide.current") && document.querySelector(".slide.current").id === "s1"`)
			press(t, ctx, kb.ArrowRight)
			waitFor(t, ctx, "the slide's demo to draw", `(() => { const f = document.querySelector(".slide.current iframe.demo"); try { return f.contentWindow.paraplay.frames > 0; } catch (e) { return false; } })()`)
		}},
	}
	for i, p := range pages {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+p.path)); err != nil {
			t.Fatalf("navigating to %s: %v", p.path, err)
		}
		policy := eval[string](t, ctx, `(document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {}).content || ""`)
		if policy != site.ContentSecurityPolicy {
			t.Errorf("%s: Content-Security-Policy meta %q, want %q", p.path, policy, site.ContentSecurityPolicy)
		}
		if i == 0 {
			// The detector must see a violation when there is one.
			eval[bool](t, ctx, `document.body.setAttribute("style", "outline: 1px solid red"), true`)
			waitFor(t, ctx, "the deliberate violation to be seen", `(window.__csp || []).length > 0`)
			if v := violations(); !strings.Contains(strings.Join(v, " "), "style-src") {
				t.Fatalf("the deliberate style attribute was reported as %q, want a style-src violation", v)
			}
			eval[bool](t, ctx, `document.body.removeAttribute("style"), window.__csp = [], true`)
		}
		p.ready()
		for _, v := range violations() {
			t.Errorf("%s: Content-Security-Policy violation: %s", p.path, v)
		}
		t.Logf("%s: policy declared, %d violations", p.path, len(violations()))
	}
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
