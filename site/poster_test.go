package site

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestPosterScale keeps the poster's text floor in step with the width
// style.css gives an article's demo: at figureWidth CSS px a 960-px poster
// shows posterMinText at minTextCSS, and the stylesheet's breakout is that
// width.
func TestPosterScale(t *testing.T) {
	if got := posterMinText * figureWidth / posterWidth; got != minTextCSS {
		t.Errorf("posterMinText %v at %d px shows at %v CSS px, want %v", posterMinText, figureWidth, got, minTextCSS)
	}
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		t.Fatal(err)
	}
	rule := regexp.MustCompile(`article figure\.demo \{[^}]*--figure: min\(calc\(100vw - 2\.5rem\), ([0-9.]+)rem\)`).FindSubmatch(css)
	if rule == nil {
		t.Fatal("style.css has no article figure.demo rule with --figure: min(calc(100vw - 2.5rem), Nrem)")
	}
	if got, want := string(rule[1]), fmt.Sprint(figureWidth/16); got != want {
		t.Errorf("style.css breaks a demo out to %srem, want %srem (figureWidth %d px)", got, want, figureWidth)
	}
	if !strings.Contains(string(css), "article figure.demo figcaption") {
		t.Error("style.css no longer keeps a demo's caption at the column's measure")
	}
}

// TestCompactPosterScale keeps the compact poster in step with style.css:
// the stylesheet gives the frame the compact poster's shape below the
// viewport width the <source> switches at, and at the narrowest viewport
// that switch is meant for (a 354-px one, whose figure is 40 px less and
// whose poster 2 px less again) compactMinText still shows at 11 CSS px.
func TestCompactPosterScale(t *testing.T) {
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		t.Fatal(err)
	}
	rule := fmt.Sprintf("@media (max-width: %dpx) {\n  figure.demo .frame { height: calc((100cqw - 2px) * %d / %d + 2px + 36.4px); }", compactBelow-1, compactHeight, compactWidth)
	if !strings.Contains(string(css), rule) {
		t.Errorf("style.css has no rule\n%s\nfor the compact poster's frame", rule)
	}
	if got := compactMinText * (354 - 40 - 2) / compactWidth; got < minTextCSS-0.05 {
		t.Errorf("compactMinText %v at a 354-px viewport shows at %.2f CSS px, want ≥ %v", compactMinText, got, minTextCSS)
	}
}
