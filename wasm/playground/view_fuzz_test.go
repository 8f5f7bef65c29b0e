package playground

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// FuzzParseView feeds the viewer's parameters (t, hide, speed, theme and
// the switches) to ParseView: no panic; every refusal is a FieldError
// naming a viewer parameter; what it accepts is in range (speed within
// MinSpeed..MaxSpeed and surviving a print and re-parse, theme light, dark
// or follow-the-page, no empty part to hide, t not negative).
func FuzzParseView(f *testing.F) {
	for _, s := range []string{"speed=2&t=3ms&hide=controls,metrics&theme=dark", "speed=NaN", "speed=1e400", "speed=0x1p3",
		"t=-1ms", "t=1e30d", "t=1.5us", "hide=,,%20,legend", "theme=AUTO", "theme=l%C4%B1ght", "speed=1&speed=2",
		"autoplay=maybe&loop=0&embed=&present=on&plan=off", "t=%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		v, err := ParseView(q)
		if err != nil {
			for _, e := range flat(err) {
				var fe *scenario.FieldError
				if !errors.As(e, &fe) || !slices.Contains(scenario.ViewParams, fe.Field) {
					t.Fatalf("ParseView(%q): %v does not name a viewer parameter", raw, e)
				}
			}
			return
		}
		if !(v.Speed >= MinSpeed && v.Speed <= MaxSpeed) {
			t.Fatalf("ParseView(%q) accepted speed %v", raw, v.Speed)
		}
		if again, err := ParseView(url.Values{"speed": {strconv.FormatFloat(v.Speed, 'g', -1, 64)}}); err != nil || again.Speed != v.Speed {
			t.Fatalf("ParseView(%q): speed %v does not survive printing: %v, %v", raw, v.Speed, again.Speed, err)
		}
		if v.Theme != "" && v.Theme != "light" && v.Theme != "dark" {
			t.Fatalf("ParseView(%q) accepted theme %q", raw, v.Theme)
		}
		for _, h := range v.Hide {
			if strings.TrimSpace(h) == "" || h != strings.TrimSpace(h) || strings.Contains(h, ",") {
				t.Fatalf("ParseView(%q) keeps hide part %q", raw, h)
			}
		}
		if v.Start < 0 {
			t.Fatalf("ParseView(%q) starts at %v", raw, v.Start)
		}
	})
}

// flat lists the errors an errors.Join holds.
func flat(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flat(e)...)
		}
		return out
	}
	return []error{err}
}
