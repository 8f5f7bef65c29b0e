package site

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"paraplay/sim/validate"
)

// The validation gallery's page, "How close is ParaPlay?": every row of
// sim/validate with its source, the published and simulated figures, the
// error and a badge. The site formats what validate.Run reports; it
// computes nothing.

// galleryPage is the page's file name.
const galleryPage = "validation.html"

// galleryView is what the template shows.
type galleryView struct {
	// Ran is false when the build was given no report: the rows are
	// listed with their published figures only.
	Ran    bool
	Groups []galleryGroup
	// Counts sums up the badges, e.g. "15 rows: 9 hold, …".
	Counts string
}

type galleryGroup struct {
	Name, ID string
	Rows     []galleryRow
}

// galleryRow is one row, every field already formatted.
type galleryRow struct {
	ID, Title, Published, Simulated, Error, Tolerance string
	// Status is the badge's class suffix (holds, off, fails, pending,
	// broken, or notrun) and Badge its text.
	Status, Badge, Enforced         string
	Cite, URL, Says, Confirmed, Why string
	Problem, Kind, Config           string
	// WhyLabel heads the row's Why: the reason it is not enforced, or a
	// note on an enforced row.
	WhyLabel string
}

// newGalleryView formats rep, or, when rep is nil, the rows alone.
func newGalleryView(rep *validate.Report) (*galleryView, error) {
	v := &galleryView{Ran: rep != nil}
	if rep == nil {
		rows, err := validate.Rows()
		if err != nil {
			return nil, fmt.Errorf("validation gallery: %w", err)
		}
		rep = &validate.Report{}
		for _, r := range rows {
			rep.Results = append(rep.Results, validate.Result{Row: r, Simulated: math.NaN(), Error: math.NaN()})
		}
	}
	for _, x := range rep.Results {
		g := v.group(x.Row.Group)
		g.Rows = append(g.Rows, galleryRowOf(x))
	}
	v.Counts = fmt.Sprintf("%d rows: %d hold, %d off (not enforced yet), %d pending, %d failing, %d broken",
		len(rep.Results), rep.Count(validate.Holds), rep.Count(validate.Off), rep.Count(validate.Pending),
		rep.Count(validate.Fails), rep.Count(validate.Broken))
	return v, nil
}

// group returns the group called name, adding it in order of first use.
func (v *galleryView) group(name string) *galleryGroup {
	for i := range v.Groups {
		if v.Groups[i].Name == name {
			return &v.Groups[i]
		}
	}
	v.Groups = append(v.Groups, galleryGroup{Name: name, ID: "group-" + slugify(name)})
	return &v.Groups[len(v.Groups)-1]
}

func galleryRowOf(x validate.Result) galleryRow {
	r := x.Row
	row := galleryRow{
		ID: r.ID, Title: r.Title,
		Published: fmt.Sprintf("%s %s", trimFigure(r.Published.Value), r.Published.Unit),
		Simulated: x.SimulatedText(), Error: x.ErrorText(), Tolerance: x.ToleranceText(),
		Status: string(x.Status), Badge: x.Status.Badge(), Enforced: "no",
		Cite: r.Source.Cite, URL: r.Source.URL, Says: r.Source.Says, Confirmed: r.Confirmed, Why: r.Why,
		Problem: x.Problem, Kind: r.Kind, Config: configText(r.Config),
	}
	row.WhyLabel = "Why it is not enforced"
	if r.Enforced {
		row.Enforced, row.WhyLabel = "yes", "Note"
	}
	if x.Status == "" {
		row.Status, row.Badge = "notrun", "not run in this build"
	}
	return row
}

func trimFigure(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.4g", v), ".0") }

// configText writes a row's config as the YAML it came from.
func configText(c map[string]string) string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v := c[k]
		if !strings.Contains(v, "\n") {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
			continue
		}
		fmt.Fprintf(&b, "%s: |\n", k)
		for _, line := range strings.Split(strings.TrimRight(v, "\n"), "\n") {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	return b.String()
}
