package validate_test

import (
	"fmt"

	"paraplay/sim/validate"
)

// A row kind is a function from a row's config to a simulated figure; Run
// judges each row against its published figure and tolerance.
func ExampleRunRow() {
	double := validate.Kind{
		Name:     "double",
		Required: []string{"x"},
		Simulate: func(c map[string]string) (float64, error) {
			var x float64
			_, err := fmt.Sscan(c["x"], &x)
			return 2 * x, err
		},
	}
	row := validate.Row{
		ID: "twice-fifty", Group: "examples", Title: "twice 50", Kind: "double",
		Config:    map[string]string{"x": "50"},
		Published: validate.Figure{Value: 104, Unit: "units"}, Tolerance: 0.05, Enforced: true,
		Source:    validate.Source{Cite: "an example", URL: "https://example.org", Says: "twice 50 is about 104"},
		Confirmed: "made up for the example",
	}
	res := validate.RunRow(row, []validate.Kind{double})
	fmt.Println(res.SimulatedText(), res.ErrorText(), res.Status.Badge())
	// Output: 100 -3.8% ✓ holds
}
