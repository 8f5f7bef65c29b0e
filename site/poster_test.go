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
