//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestSiteLAMP reads the 3D-parallelism article's LAMP demo, a build-time
// table (the browser leaves the 3D U-Net out): the four stages' memory
// beside what one GPU would need, the skip connections' share of the
// bytes sent between stages, and what the links add to GPipe's flow shop.
// The article's seven live demos load beside it; the screenshot shows the
// table.
func TestSiteLAMP(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	readDemos(t, ctx, base, "3d-parallelism.html", 7, "lamp-3d")
	table := eval[string](t, ctx, `(() => {
		const f = [...document.querySelectorAll("figure.static-run")].find(f => f.innerText.includes("LAMP's"));
		if (!f) return "";
		f.scrollIntoView({block: "center"});
		return f.innerText;
	})()`)
	for _, want := range []string{"LAMP's 4 stages", "one GPU would need 82.8 GiB", "of it skip connections", "the links add", "simulated", "3D U-Net"} {
		if !strings.Contains(table, want) {
			t.Errorf("the LAMP table lacks %q: %q", want, table)
		}
	}
	screenshot(t, ctx, "lamp-3d.png")
	noConsoleErrors(t, con)
}
