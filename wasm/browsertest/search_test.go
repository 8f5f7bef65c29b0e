//go:build browser

package browsertest

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// staticTable scrolls to the build-time table whose text holds marker
// and returns its text ("" when there is none).
func staticTable(t *testing.T, ctx context.Context, marker string) string {
	t.Helper()
	return eval[string](t, ctx, `(() => {
		const f = [...document.querySelectorAll("figure.static-run")].find(f => f.innerText.includes(`+strconv.Quote(marker)+`));
		if (!f) return "";
		f.scrollIntoView({block: "center"});
		return f.innerText;
	})()`)
}

// TestSiteFlexFlow reads the planner article's FlexFlow demo, a
// build-time table (the browser leaves the search out): the walk's best
// plan beside data parallelism and the exhaustive optimum, the operators
// split by parameters, the best plan at each improving step, and the
// played iteration beside its FlexCost.
func TestSiteFlexFlow(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/planner.html")); err != nil {
		t.Fatal(err)
	}
	table := staticTable(t, ctx, "FlexFlow's search")
	for _, want := range []string{"VGG-16", "3000 MCMC steps", "fc6, fc7", "the best plan over the walk: step 0", "exhaustive optimum over all 65536 plans", "simulated"} {
		if !strings.Contains(table, want) {
			t.Errorf("the FlexFlow table lacks %q: %q", want, table)
		}
	}
	screenshot(t, ctx, "flexflow-planner.png")
	noConsoleErrors(t, con)
}

// TestSiteDLPlacer reads the 3D-parallelism article's DLPlacer demo, a
// build-time table: the placement of module 3a's four branches, the
// module beside one GPU, and the played module beside its critical path.
// The article's seven live demos load beside it.
func TestSiteDLPlacer(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	readDemos(t, ctx, base, "3d-parallelism.html", 7, "dlplacer-3d")
	table := staticTable(t, ctx, "DLPlacer's placement")
	for _, want := range []string{"inception3a", "best of all 256 assignments", "1.32", "critical path", "simulated"} {
		if !strings.Contains(table, want) {
			t.Errorf("the DLPlacer table lacks %q: %q", want, table)
		}
	}
	screenshot(t, ctx, "dlplacer-3d.png")
	noConsoleErrors(t, con)
}
