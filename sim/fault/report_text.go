//go:build !js

package fault

import (
	"fmt"
	"io"
	"strings"

	"paraplay/sim/units"
)

// The report as text is for the command line (the browser draws a long
// run), so the wasm leaves it out.

// WriteText prints the report for people.
func (r Report) WriteText(w io.Writer) error {
	pct := func(t units.Time) string {
		if r.Wall == 0 {
			return "0.0%"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(t)/float64(r.Wall))
	}
	var causes, blame []string
	for _, c := range r.ByCause {
		causes = append(causes, fmt.Sprintf("%s %d", c.Cause, c.Count))
		blame = append(blame, fmt.Sprintf("%s %s", c.Cause, Human(c.Lost)))
	}
	l := r.Lost
	_, err := fmt.Fprintf(w, `  policy                %s
  wall time             %s
  failures              %d  (%.3f per hour; job MTBF %s)  %s
  goodput               %.1f%%  (%s of useful training, %d iterations)
  effective training    %.1f%%  (training time that was kept, at any speed)
  lost time             %s  (%s)
    by failure cause    %s
    lost work           %s  (%s)  rolled back by failures
    restart             %s  (%s)  reload and re-initialise
    checkpoint writes   %s  (%s)  %d checkpoints
    detection           %s  (%s)  heartbeat timeouts
    reconfiguration     %s  (%s)  groups rebuilt
    degraded            %s  (%s)  throughput below healthy
  checkpoint interval   %s  (Young √(2·C·MTBF) = %s, Daly = %s)
`, r.Policy, Human(r.Wall), r.Failures, r.FailuresPerHour, Human(r.MTBF), strings.Join(causes, ", "),
		100*r.Goodput, Human(r.Useful), r.Iterations, 100*r.EffectiveTraining,
		Human(l.Total()), pct(l.Total()), strings.Join(blame, ", "), Human(l.Work), pct(l.Work), Human(l.Restart), pct(l.Restart),
		Human(l.Checkpoint), pct(l.Checkpoint), r.Checkpoints, Human(l.Detection), pct(l.Detection),
		Human(l.Reconfigure), pct(l.Reconfigure), Human(l.Degraded), pct(l.Degraded),
		Human(r.CheckpointInterval), Human(r.YoungInterval), Human(r.DalyInterval))
	return err
}

// WriteSweep prints a sweep as a table, marking its best interval and the
// one nearest Young's optimum.
func WriteSweep(w io.Writer, points []Point, young units.Time) error {
	best := Best(points)
	nearest := 0
	for i, p := range points {
		if absRatio(p.Interval, young) < absRatio(points[nearest].Interval, young) {
			nearest = i
		}
	}
	if _, err := fmt.Fprintf(w, "  %-10s %8s %9s %8s\n", "interval", "goodput", "Daly", "failures"); err != nil {
		return err
	}
	for i, p := range points {
		mark := ""
		if p == best {
			mark += "  ← best"
		}
		if i == nearest {
			mark += "  ← Young √(2·C·MTBF) = " + Human(young)
		}
		if _, err := fmt.Fprintf(w, "  %-10s %7.2f%% %8.2f%% %8d%s\n", Human(p.Interval), 100*p.Goodput, 100*p.Expected, p.Failures, mark); err != nil {
			return err
		}
	}
	return nil
}

// absRatio is how far apart a and b are, as a ratio ≥ 1.
func absRatio(a, b units.Time) float64 {
	r := a.Seconds() / b.Seconds()
	if r < 1 {
		return 1 / r
	}
	return r
}
