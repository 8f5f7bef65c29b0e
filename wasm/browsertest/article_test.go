//go:build browser

package browsertest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSiteInternetArticle reads the internet-training article as a
// newcomer would: every demo shows its poster and a caption with the
// simulator's numbers, each figure is saved as a screenshot for a person
// to look at, and the compressed local-SGD demo plays. The references page
// lists the off-topic surveyed papers apart, with their reasons.
func TestSiteInternetArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "internet-training.html", 9, "internet")
	for i, c := range captions {
		if !strings.Contains(c, "simulated") && !strings.Contains(c, "MFU") {
			t.Errorf("demo %d's caption has neither a simulated figure nor an MFU: %q", i+1, c)
		}
	}
	playDemo(t, ctx, 4, "internet")

	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/references.html#not-covered")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the off-topic list", `document.querySelectorAll("#not-covered + p + ol li").length === 2`)
	text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#not-covered + p + ol").innerText`))
	if strings.Count(text, "Not covered:") != 2 || !strings.Contains(text, "Cimple") || !strings.Contains(text, "Resistive") {
		t.Errorf("references.html's off-topic list: %q", text)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-references-not-covered.png"), 20)
	noConsoleErrors(t, con)
}
