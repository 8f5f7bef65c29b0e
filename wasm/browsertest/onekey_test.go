//go:build browser

package browsertest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSiteOneKeyMechanisms reads the demos of the mechanisms that are one
// key each: the hybrid compression of a GPT-NeoX-20B-shaped job (its
// caption sets the compressed pipeline message beside its closed form, and
// the 192-GPU demo plays), Slim-DP's sparse exchange (push and pull beside
// 2rS and rS), and DDP against FSDP on A10Gs side by side on one clock,
// opened from the article's link.
func TestSiteOneKeyMechanisms(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "3d-parallelism.html", 7, "neox")
	if c := captions[5]; !strings.Contains(c, "pipeline message, activations at 0.5: simulated 12 MiB; a·2bsh/t = 12 MiB") {
		t.Errorf("the hybrid demo's caption lacks its compressed message: %q", c)
	}
	playDemo(t, ctx, 6, "neox")

	captions = readDemos(t, ctx, base, "parameter-servers.html", 6, "slimdp")
	if c := captions[5]; !strings.Contains(c, "Slim-DP push per worker: simulated 25.6 MiB; 2rS = 25.6 MiB") || !strings.Contains(c, "rS = 12.8 MiB") {
		t.Errorf("the Slim-DP caption lacks its bytes beside 2rS and rS: %q", c)
	}

	readDemos(t, ctx, base, "zero-fsdp.html", 12, "a10g")
	href := eval[string](t, ctx, `[...document.querySelectorAll("a")].find(a => a.textContent.includes("side by side on one clock")).getAttribute("href")`)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+href)); err != nil {
		t.Fatal(err)
	}
	sides := `[...document.querySelectorAll("#cmp-frames iframe")].map(f => f.contentWindow.paraplay)`
	waitFor(t, ctx, "both sides' first frames", `(() => { const p = `+sides+`; return p.length === 2 && p.every(x => x && x.frames > 0); })()`)
	for i, r := range eval[[]string](t, ctx, sides+`.map(p => { const r = p.current(); return r.ok ? "ran" : r.errorTitle + ": " + r.error; })`) {
		if r != "ran" {
			t.Errorf("side %d of DDP against FSDP: %s", i, r)
		}
	}
	waitFor(t, ctx, "the sides' captions", `[...document.querySelectorAll("#cmp-frames figcaption")].length === 2`)
	t.Logf("captions: %q", eval[[]string](t, ctx, `[...document.querySelectorAll("#cmp-frames figcaption")].map(c => c.innerText)`))
	assertDrawn(t, screenshot(t, ctx, "paraplay-a10g-ddp-vs-fsdp.png"), 20)
	noConsoleErrors(t, con)
}
