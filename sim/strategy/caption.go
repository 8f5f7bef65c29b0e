package strategy

import (
	"fmt"
	"strings"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Unit says how a figure is written. The site writes every figure of a
// caption by its unit (site/caption.go), so a strategy hands over numbers,
// never formatted text.
type Unit uint8

// The units of a caption's figures.
const (
	// Int is a whole number: "8".
	Int Unit = iota
	// Sig2 and Sig3 are a plain number to two or three significant
	// digits: "0.53", "1.77".
	Sig2
	Sig3
	// Count is a rate or count to three significant digits with k or M:
	// "92.2k".
	Count
	// Nanoseconds is a time in nanoseconds, written to three significant
	// digits in its unit: "10.1 ms".
	Nanoseconds
	// Percent is a fraction written as a percentage: "27.3%".
	Percent
	// GiB is bytes in GiB to one decimal: "23.5 GiB".
	GiB
	// KiB is bytes in KiB to three significant digits: "128 KiB".
	KiB
	// Size is bytes in GiB, or MiB below a GiB, to three significant
	// digits: "1.5 GiB", "512 MiB".
	Size
	// GBps is bytes per second in GB/s to three significant digits.
	GBps
	// Dollars is an amount to three decimals: "$0.125" (the Text writes
	// the dollar sign).
	Dollars
	// Fixed2 is a number to two decimals: "1.23".
	Fixed2
	// Human is a time in nanoseconds written as people say a long one:
	// "3h", "2.5 days".
	Human
	// Days is a time in nanoseconds as the adjective of a long run:
	// "30-day".
	Days
)

// Value is one figure: a number and how to write it.
type Value struct {
	// V is the number, in the unit's base (bytes, nanoseconds, a fraction).
	V float64
	// Unit says how V is written.
	Unit Unit
	// Role marks the two figures a Check compares.
	Role Role
}

// Role says what a checking part's value is.
type Role uint8

// The roles of a value.
const (
	// Shown is a figure that is only shown.
	Shown Role = iota
	// Simulated is the run's figure that a closed form predicts.
	Simulated
	// Expected is the closed form's prediction.
	Expected
)

// Part is one part of a caption: Text with each "{}" standing for the
// next of Values, written in its unit. A Part that compares a simulated
// figure with a closed form has a Check.
type Part struct {
	// Text is the part's words, with "{}" where each value goes.
	Text string
	// Values fill the "{}" of Text in order.
	Values []Value
	// Check, when set, says that the part compares its Simulated value
	// with its Expected one.
	Check *Check
}

// Check is a closed form beside the simulated figure it predicts: what
// the tests compare, and what a reader sees agree in the caption.
type Check struct {
	// Name says what is compared, e.g. "pipeline bubble".
	Name string
	// Formula is the closed form, e.g. "(p−1)/(m+p−1)".
	Formula string
	// Source names the paper or derivation the formula comes from.
	Source string
	// Tolerance is the relative difference the two may show (rounding to
	// nanoseconds and bytes; an approximation the formula makes).
	Tolerance float64
}

// Simulated is a checking part's simulated figure.
func (p Part) Simulated() float64 { return p.role(Simulated) }

// Expected is a checking part's closed-form figure.
func (p Part) Expected() float64 { return p.role(Expected) }

func (p Part) role(r Role) float64 {
	for _, v := range p.Values {
		if v.Role == r {
			return v.V
		}
	}
	return 0
}

// Agrees reports whether a checking part's simulated figure is within its
// tolerance of the closed form's (relative to the larger of the two, and
// absolutely within 1e-12 for figures at zero).
func (p Part) Agrees() bool {
	a, b := p.Simulated(), p.Expected()
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= p.Check.Tolerance*max(abs(a), abs(b))+1e-12
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Figure is a Part without a check.
func Figure(text string, values ...Value) Part { return Part{Text: text, Values: values} }

// Compare is a checking Part: text has two "{}", the simulated figure
// then the closed form's, both in unit u.
func Compare(c Check, text string, simulated, expected float64, u Unit) Part {
	return Part{Text: text, Values: []Value{{simulated, u, Simulated}, {expected, u, Expected}}, Check: &c}
}

// Validate reports a part whose Text has not one "{}" per value, or a
// check without two values.
func (p Part) Validate() error {
	if n := strings.Count(p.Text, "{}"); n != len(p.Values) {
		return fmt.Errorf("caption part %q has %d {} for %d values", p.Text, n, len(p.Values))
	}
	if p.Check != nil {
		roles := map[Role]int{}
		for _, v := range p.Values {
			roles[v.Role]++
		}
		if roles[Simulated] != 1 || roles[Expected] != 1 {
			return fmt.Errorf("caption check %q has %d simulated and %d expected values, want one each", p.Check.Name, roles[Simulated], roles[Expected])
		}
	}
	return nil
}

// Nanos is a time as a figure.
func Nanos(t units.Time) Value { return Value{V: float64(t), Unit: Nanoseconds} }

// Whole is a whole number as a figure.
func Whole(n int) Value { return Value{V: float64(n), Unit: Int} }

// Of is v as a figure in unit u.
func Of(v float64, u Unit) Value { return Value{V: v, Unit: u} }

// Bytes is a size as a figure in unit u (GiB, KiB or Size).
func Bytes(b units.Bytes, u Unit) Value { return Value{V: float64(b), Unit: u} }

// RecordOf is the record strategy name keeps in tl.Extra, or an error
// naming the strategy when the timeline has none (a caption asked of
// another strategy's run).
func RecordOf[R any](tl *timeline.Timeline, name string) (R, error) {
	r, ok := tl.Extra[name].(R)
	if !ok {
		return r, fmt.Errorf("%s: the timeline has no %s record", name, name)
	}
	return r, nil
}
