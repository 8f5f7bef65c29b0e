package playground

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// sideQuery is the query play.js gives one side's iframe in compare mode:
// the side's own query without the viewer's parameters, embedded and
// paused.
func sideQuery(q url.Values, side string) url.Values {
	own, err := url.ParseQuery(q.Get(side))
	if err != nil {
		return nil
	}
	for _, v := range scenario.ViewParams {
		own.Del(v)
	}
	own.Set("embed", "1")
	own.Set("autoplay", "0")
	return own
}

func TestNestedCompare(t *testing.T) {
	nested := url.Values{"a": {"gpus=8"}, "b": {"gpus=16"}}.Encode()
	cases := []struct {
		query string
		want  string // the field the refusal names, or "" for none
	}{
		{"gpus=8", ""},
		{"", ""},
		{"embed=1&autoplay=0&gpus=4", ""},
		{"a=gpus%3D8", "a"},
		{"b=gpus%3D8", "b"},
		{"a=&b=", "a"},
		{nested, "a"},
		{"gpus=4&b=" + url.QueryEscape(nested), "b"},
	}
	for _, c := range cases {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		err = NestedCompare(q)
		var fe *scenario.FieldError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("NestedCompare(%q) = %v, want nil", c.query, err)
		case c.want != "" && !errors.As(err, &fe):
			t.Errorf("NestedCompare(%q) = %v, want a FieldError naming %s", c.query, err, c.want)
		case c.want != "" && fe.Field != c.want:
			t.Errorf("NestedCompare(%q) names %q, want %q", c.query, fe.Field, c.want)
		}
	}
}

// TestCompareDepthOne follows a nested link the way the pages do: the
// top page splits a= and b= into two sides; a side that is itself a
// compare query is refused, so at most two apps ever start.
func TestCompareDepthOne(t *testing.T) {
	link := "gpus=8"
	for i := 0; i < 4; i++ { // four levels: 16 apps before the refusal
		link = url.Values{"a": {link}, "b": {link}}.Encode()
	}
	top, _ := url.ParseQuery(link)
	if !IsCompare(top) {
		t.Fatal("the top page does not see a compare query")
	}
	apps := 0
	for _, side := range CompareSides {
		q := sideQuery(top, side)
		apps++
		err := NestedCompare(q)
		if err == nil || !strings.Contains(err.Error(), "does not nest") {
			t.Errorf("side %s of a nested link: got %v, want the nesting refused", side, err)
		}
	}
	if apps != 2 {
		t.Errorf("%d apps started, want 2", apps)
	}
}

// FuzzCompareQuery feeds the compare page's queries through what each
// side's app does with them: a side refuses exactly the queries that set
// a= or b=, naming the parameter, and neither the scenario's nor the
// viewer's parser panics on a side.
func FuzzCompareQuery(f *testing.F) {
	for _, s := range []string{"a=gpus%3D8&b=gpus%3D16", "a=a%3Db%253Dx", "a=%zz", "b=embed%3D0%26a%3D", "a=speed%3D5000&b=t%3Dx", "gpus=4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		top, err := url.ParseQuery(raw)
		if err != nil || !IsCompare(top) {
			return
		}
		for _, side := range CompareSides {
			q := sideQuery(top, side)
			if q == nil {
				continue
			}
			err := NestedCompare(q)
			var fe *scenario.FieldError
			if IsCompare(q) != (err != nil) || (err != nil && (!errors.As(err, &fe) || (fe.Field != "a" && fe.Field != "b"))) {
				t.Fatalf("side %s of %q: NestedCompare = %v", side, raw, err)
			}
			if err == nil {
				_, _ = scenario.FromQuery(q)
				_, _ = ParseView(q)
			}
		}
	})
}
