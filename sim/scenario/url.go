package scenario

import (
	"errors"
	"net/url"
	"sort"
)

// ViewParams are URL parameters that belong to the viewer, not to the
// scenario (the browser app reads them itself; trace, the URL of a
// profiler trace to play, is read by the page, site/assets/trace.js);
// FromQuery skips them.
var ViewParams = []string{"speed", "autoplay", "loop", "t", "embed", "hide", "present", "theme", "plan", "trace"}

// FromQuery decodes a scenario from URL query parameters, starting from
// Default. Parameters are untrusted: an unknown parameter or a bad value is a
// *FieldError naming the parameter, and the result is validated.
func FromQuery(q url.Values) (Scenario, error) {
	s := Default()
	var errs []error
	seen := map[string]bool{}
	params := make([]string, 0, len(q))
	for p := range q {
		params = append(params, p)
	}
	sort.Strings(params) // deterministic error order
	for _, p := range params {
		if isViewParam(p) {
			continue
		}
		f := fieldByParam(p)
		if f == nil {
			errs = append(errs, &FieldError{Field: p, Msg: "unknown parameter; known: " + knownParams()})
			continue
		}
		vs := q[p]
		if len(vs) != 1 {
			errs = append(errs, &FieldError{Field: p, Msg: "given more than once"})
			continue
		}
		seen[f.Key] = true
		if err := f.Set(&s, vs[0]); err != nil {
			errs = append(errs, &FieldError{Field: p, Msg: err.Error()})
		}
	}
	inferStrategy(&s, seen)
	errs = append(errs, applyMesh(&s, seen)...)
	// Validate names fields by their YAML key; a URL's reader knows them by
	// the parameter, so name that too.
	for _, err := range flatten(s.Validate()) {
		var fe *FieldError
		if errors.As(err, &fe) {
			if f := fieldByKey(fe.Field); f != nil && f.Param != fe.Field {
				err = &FieldError{Field: f.Param + " (" + fe.Field + ")", Msg: fe.Msg}
			}
		}
		errs = append(errs, err)
	}
	return s, errors.Join(errs...)
}

// Query encodes s as URL parameters: only the fields that differ from
// Default, so that links stay short. FromQuery(s.Query()) gives s back.
func (s *Scenario) Query() url.Values {
	q := url.Values{}
	d := Default()
	for _, f := range allFields() {
		if v := f.Get(s); v != f.Get(&d) {
			q.Set(f.Param, v)
		}
	}
	return q
}

func isViewParam(p string) bool {
	for _, v := range ViewParams {
		if v == p {
			return true
		}
	}
	return false
}

func knownParams() string {
	out := ""
	for i, f := range allFields() {
		if i > 0 {
			out += ", "
		}
		out += f.Param
	}
	for _, v := range ViewParams {
		out += ", " + v
	}
	return out
}
