package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"paraplay/sim/cost"
	"paraplay/sim/plan"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// planKeys are the scenario keys a plan's JSON and CSV rows carry.
var planKeys = []string{"model.preset", "model.seq_len", "cluster.gpu", "cluster.nodes", "cluster.gpus_per_node",
	"parallel.dp", "parallel.tp", "parallel.pp", "parallel.cp", "parallel.ep", "parallel.schedule",
	"parallel.virtual_stages", "parallel.microbatches", "parallel.micro_batch_size", "parallel.zero",
	"parallel.recompute", "parallel.sequence_parallel"}

// scenarioKeys returns p's values of planKeys, by key, as the scenario's
// own table writes them.
func scenarioKeys(s scenario.Scenario) map[string]string {
	byParam := s.Values()
	out := map[string]string{}
	for _, prm := range scenario.Params() {
		if slices.Contains(planKeys, prm.Key) {
			out[prm.Key] = byParam.Get(prm.Name)
		}
	}
	return out
}

// planRow is one plan in the JSON output.
type planRow struct {
	Rank       int            `json:"rank"`
	Keys       map[string]any `json:"-"`
	Iteration  *float64       `json:"iteration_time_s"`
	MFU        *float64       `json:"mfu"`
	PeakMemory units.Bytes    `json:"peak_memory_bytes"`
	Fits       bool           `json:"fits"`
	NearOOM    bool           `json:"near_oom"`
	Status     plan.Status    `json:"status"`
	LowerBound float64        `json:"lower_bound_s"`
	Detailed   *float64       `json:"detailed_iteration_time_s,omitempty"`
	Reason     string         `json:"reason,omitempty"`
	Why        string         `json:"why"`
	Query      string         `json:"query"`
	// Cost prices --tokens (a million by default) on the simulated plan.
	Cost *cost.Estimate `json:"cost,omitempty"`
}

// MarshalJSON writes the scenario keys beside the row's own fields, so a
// plan reads as its scenario plus its figures.
func (r planRow) MarshalJSON() ([]byte, error) {
	type plain planRow
	own, err := json.Marshal(plain(r))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(own, &m); err != nil {
		return nil, err
	}
	for k, v := range r.Keys {
		m[k] = v
	}
	return json.Marshal(m)
}

func newPlanRow(rank int, p *plan.Plan, tokens float64) planRow {
	r := planRow{Rank: rank, PeakMemory: p.Estimate.PeakMemory, Fits: p.Fits, NearOOM: p.NearOOM, Status: p.Status,
		LowerBound: p.Estimate.LowerBound.Seconds(), Reason: p.Reason, Why: p.Why, Keys: map[string]any{}}
	for k, v := range scenarioKeys(p.Scenario) {
		if n, err := strconv.Atoi(v); err == nil {
			r.Keys[k] = n
		} else if b, err := strconv.ParseBool(v); err == nil {
			r.Keys[k] = b
		} else {
			r.Keys[k] = v
		}
	}
	if p.Result != nil {
		it, mfu := p.Result.Iteration.Seconds(), p.Result.MFU
		r.Iteration, r.MFU = &it, &mfu
		if e, ok := p.Cost(planTokens(tokens)); ok {
			r.Cost = &e
		}
	}
	if p.Detailed != nil {
		d := p.Detailed.Iteration.Seconds()
		r.Detailed = &d
	}
	q := p.Scenario
	q.Fidelity = "auto"
	r.Query = q.Query().Encode()
	return r
}

func writePlanJSON(w io.Writer, plans []*plan.Plan, tokens float64, why []plan.Breakdown) error {
	rows := make([]planRow, len(plans))
	for i, p := range plans {
		rows[i] = newPlanRow(i+1, p, tokens)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Plans []planRow `json:"plans"`
		// Why is the best plan against the runner-up and the naive
		// layouts, part by part (plan.Result.Why).
		Why []plan.Breakdown `json:"why"`
	}{rows, why})
}

func writePlanCSV(w io.Writer, plans []*plan.Plan) error {
	cw := csv.NewWriter(w)
	header := append([]string{"rank", "status"}, planKeys...)
	header = append(header, "iteration_time_s", "mfu", "peak_memory_bytes", "fits", "lower_bound_s", "reason", "why")
	if err := cw.Write(header); err != nil {
		return err
	}
	for i, p := range plans {
		keys := scenarioKeys(p.Scenario)
		row := []string{strconv.Itoa(i + 1), string(p.Status)}
		for _, k := range planKeys {
			row = append(row, keys[k])
		}
		it, mfu := "", ""
		if p.Result != nil {
			it, mfu = strconv.FormatFloat(p.Result.Iteration.Seconds(), 'f', 6, 64), strconv.FormatFloat(p.Result.MFU, 'f', 4, 64)
		}
		row = append(row, it, mfu, strconv.FormatInt(int64(p.Estimate.PeakMemory), 10), strconv.FormatBool(p.Fits),
			strconv.FormatFloat(p.Estimate.LowerBound.Seconds(), 'f', 6, 64), p.Reason, p.Why)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writePlanText prints the search's counts, the best plans as a table and
// how many plans lost for each reason.
func writePlanText(w io.Writer, r *plan.Result, shown []*plan.Plan) error {
	c, pr := r.Config, r.Progress
	seq := c.Model.SeqLen
	if c.Cluster.Topology != "" {
		fmt.Fprintf(w, "%s on a %s slice of %s (%d chips), global batch %d", c.Model.Preset, c.Cluster.Topology, c.Cluster.GPU, c.GPUs(), c.GlobalBatch)
	} else {
		fmt.Fprintf(w, "%s on %d × %d %s, global batch %d", c.Model.Preset, max(1, c.Cluster.Nodes), c.Cluster.GPUsPerNode, c.Cluster.GPU, c.GlobalBatch)
	}
	if seq > 0 {
		fmt.Fprintf(w, " × %d tokens", seq)
	}
	fmt.Fprintf(w, "\n%d plans: %d out of memory, %d dominated (ZeRO-1 = ZeRO-2 time), %d ruled out by the lower bound, %d simulated (analytic)",
		pr.Plans, pr.OutOfMemory, pr.Dominated, pr.Bounded, pr.Simulated)
	if pr.Unsimulated > 0 {
		fmt.Fprintf(w, ", %d not simulated (budget)", pr.Unsimulated)
	}
	if pr.Detailed > 0 {
		fmt.Fprintf(w, ", %d re-simulated in detail", pr.Detailed)
	}
	if pr.Rejected > 0 {
		fmt.Fprintf(w, "; %d invalid for this model", pr.Rejected)
	}
	fmt.Fprintln(w)
	if len(r.Plans) == 0 || r.Plans[0].Status != plan.Best {
		fmt.Fprintln(w, "no plan fits in memory")
	} else if best := r.Plans[0].Result.Iteration; r.Floor > 0 && r.Floor < best {
		fmt.Fprintf(w, "the simulation budget ran out: no plan of the space runs under %s, so the best is at most %s (%.1f%%) slower than the optimum\n",
			fmtSeconds(r.Floor), fmtSeconds(best-r.Floor), 100*(best-r.Floor).Seconds()/best.Seconds())
	}
	width := 22 // the plan column: a TPU mesh with its layout may be longer
	for _, p := range shown {
		width = max(width, utf8.RuneCountInString(planLayout(p.Scenario.Parallel)))
	}
	fmt.Fprintf(w, "\n%4s  %-*s %-15s %-9s %-5s %-9s %11s %6s %10s  %s\n", "rank", width, "plan", "schedule", "b × m", "zero", "recompute", "iteration", "MFU", "peak/GPU", "why it lost")
	for i, p := range shown {
		q := p.Scenario.Parallel
		layout := planLayout(q)
		sched := planSchedule(q)
		it, mfu := "≥"+fmtSeconds(p.Estimate.LowerBound), "-"
		if p.Result != nil {
			it, mfu = fmtSeconds(p.Result.Iteration), fmt.Sprintf("%.1f%%", 100*p.Result.MFU)
		}
		if p.Status == plan.OutOfMemory || p.Status == plan.Dominated {
			it = "-"
		}
		why := p.Why
		if p.Status == plan.Best {
			why = "best"
			if p.Detailed != nil {
				why += fmt.Sprintf(" (detailed: %s)", fmtSeconds(p.Detailed.Iteration))
			}
		}
		zero := fmt.Sprint(q.ZeRO)
		if q.ZeROLayers > 0 {
			zero += fmt.Sprintf("/%d", q.ZeROLayers) // ZeRO-3 on the first k layers (osdp)
		}
		fmt.Fprintf(w, "%4d  %-*s %-15s %-9s %-5s %-9s %11s %6s %10s  %s\n", i+1, width, layout, sched,
			fmt.Sprintf("%d × %d", q.MicroBatchSize, q.Microbatches), zero, q.Recompute, it, mfu, fmtGiB(p.Estimate.PeakMemory), why)
	}
	fmt.Fprintln(w, scheduleLegend)
	var counts []string
	for _, l := range plan.Losses(r.Plans) {
		counts = append(counts, fmt.Sprintf("%s %d", l.Reason, l.Plans))
	}
	fmt.Fprintf(w, "\nwhy the others lost: %s\n", strings.Join(counts, ", "))
	writeWhy(w, planWhy(r))
	writeBestPlan(w, r)
	return nil
}

func fmtSeconds(t units.Time) string { return fmt.Sprintf("%.3f s", t.Seconds()) }

func fmtGiB(b units.Bytes) string { return fmt.Sprintf("%.1f GiB", float64(b)/float64(units.GiB)) }
