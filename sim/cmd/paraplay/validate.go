package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"paraplay/sim/validate"
)

const validateUsage = `paraplay validate runs the validation gallery: every published measurement
in sim/validate/rows, simulated and set beside its published figure, with
the error and a badge. Rows marked enforced must hold their tolerance; the
others are reported with the reason they are not enforced yet.

Exit status: 0 when every enforced row holds; 1 when an enforced row is
outside its tolerance or a row cannot be simulated; 2 for bad flags.

Flags:
`

func validateCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("paraplay validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, validateUsage); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print the results as JSON")
	only := fs.String("rows", "", "comma-separated row IDs to run (default: every row)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "paraplay validate: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	rows, err := validate.Rows()
	if err != nil {
		fmt.Fprintf(stderr, "paraplay validate: %v\n", err)
		return exitError
	}
	if *only != "" {
		if rows, err = pickRows(rows, strings.Split(*only, ",")); err != nil {
			fmt.Fprintf(stderr, "paraplay validate: --rows: %v\n", err)
			return exitUsage
		}
	}
	return report(validate.Run(rows, validate.Kinds()), *asJSON, stdout, stderr)
}

// report writes rep and returns the exit status: exitError when a row
// fails or is broken.
func report(rep validate.Report, asJSON bool, stdout, stderr io.Writer) int {
	write := rep.WriteText
	if asJSON {
		write = rep.WriteJSON
	}
	if err := write(stdout); err != nil {
		fmt.Fprintf(stderr, "paraplay validate: %v\n", err)
		return exitError
	}
	if !rep.OK() {
		fmt.Fprintln(stderr, "paraplay validate: an enforced row is outside its tolerance or a row is broken")
		return exitError
	}
	return 0
}

// pickRows keeps the rows named in ids, in the gallery's order.
func pickRows(rows []validate.Row, ids []string) ([]validate.Row, error) {
	want := map[string]bool{}
	for _, id := range ids {
		want[strings.TrimSpace(id)] = true
	}
	var out []validate.Row
	for _, r := range rows {
		if want[r.ID] {
			out = append(out, r)
			delete(want, r.ID)
		}
	}
	if len(want) > 0 {
		var unknown, known []string
		for id := range want {
			unknown = append(unknown, id)
		}
		for _, r := range rows {
			known = append(known, r.ID)
		}
		return nil, fmt.Errorf("unknown row %s; known: %s", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return out, nil
}
