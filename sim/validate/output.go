package validate

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// Badge is the short text a status shows as.
func (s Status) Badge() string {
	switch s {
	case Holds:
		return "✓ holds"
	case Off:
		return "✗ off"
	case Fails:
		return "✗ FAILS"
	case Pending:
		return "… pending"
	}
	return "✗ BROKEN"
}

// SimulatedText formats the simulated figure, "—" when there is none.
func (r Result) SimulatedText() string {
	if math.IsNaN(r.Simulated) {
		return "—"
	}
	return figure(r.Simulated)
}

// ErrorText formats the error: a signed percentage for a relative row,
// the signed difference in the row's unit for an at_most row.
func (r Result) ErrorText() string {
	switch {
	case math.IsNaN(r.Error):
		return "—"
	case r.Row.Compare == AtMost:
		return fmt.Sprintf("%+.1f", r.Error)
	}
	return fmt.Sprintf("%+.1f%%", 100*r.Error)
}

// ToleranceText formats what holds: "±8%" or "≤ 10".
func (r Result) ToleranceText() string {
	if r.Row.Compare == AtMost {
		return "≤ " + figure(r.Row.Published.Value)
	}
	return fmt.Sprintf("±%g%%", 100*r.Row.Tolerance)
}

// figure prints a number with three significant digits or its integer part.
func figure(v float64) string {
	if math.Abs(v) >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// WriteText writes the report as a table, then a note under every row that
// does not hold saying why, then a line of counts.
func (r Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ROW\tPUBLISHED\tSIMULATED\tERROR\tTOLERANCE\tENFORCED\tSTATUS")
	for _, x := range r.Results {
		enforced := "no"
		if x.Row.Enforced {
			enforced = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s %s\t%s\t%s\t%s\t%s\t%s\n", x.Row.ID, figure(x.Row.Published.Value), x.Row.Published.Unit,
			x.SimulatedText(), x.ErrorText(), x.ToleranceText(), enforced, x.Status.Badge())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, x := range r.Results {
		if x.Status == Holds {
			continue
		}
		why := x.Row.Why
		if x.Problem != "" {
			why = x.Problem + ". " + why
		}
		fmt.Fprintf(w, "\n%s (%s): %s\n", x.Row.ID, x.Status, oneLine(why))
	}
	_, err := fmt.Fprintf(w, "\n%d rows: %d hold, %d off (not enforced), %d pending, %d fail, %d broken\n",
		len(r.Results), r.Count(Holds), r.Count(Off), r.Count(Pending), r.Count(Fails), r.Count(Broken))
	return err
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// resultJSON is a Result with its numbers as JSON can carry them: null for
// a figure that does not exist.
type resultJSON struct {
	Row       Row      `json:"row"`
	Simulated *float64 `json:"simulated"`
	Error     *float64 `json:"error"`
	Status    Status   `json:"status"`
	Problem   string   `json:"problem,omitempty"`
}

// MarshalJSON writes the simulated figure and the error as null when they
// are NaN.
func (r Result) MarshalJSON() ([]byte, error) {
	num := func(v float64) *float64 {
		if math.IsNaN(v) {
			return nil
		}
		return &v
	}
	return json.Marshal(resultJSON{r.Row, num(r.Simulated), num(r.Error), r.Status, r.Problem})
}

// WriteJSON writes the report as indented JSON with the counts.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		OK      bool     `json:"ok"`
		Results []Result `json:"results"`
	}{r.OK(), r.Results})
}
