package nccllog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"paraplay/sim/units"
)

// Limits on a log: far beyond what nccl-tests prints (a sweep of 8 B to
// 16 GB by factors of 2 is 32 rows; -n 1000 ranks lists a thousand).
const (
	// MaxLine is the longest line read.
	MaxLine = 4096
	// MaxRows is the most rows kept.
	MaxRows = 10000
	// MaxRanks is the most "Rank" lines kept.
	MaxRanks = 1 << 16
)

// Log is one nccl-tests run.
type Log struct {
	// Op is the collective in ParaPlay's spelling ("all_reduce"), from the
	// "Collective test starting: all_reduce_perf" line, empty when the log
	// does not say.
	Op string `json:"op,omitempty"`
	// Ranks lists the "Rank N … on HOST device D [bus] NAME" lines.
	Ranks []Rank `json:"ranks,omitempty"`
	// Rows are the measurements, one per buffer size.
	Rows []Row `json:"rows"`
}

// Rank is one rank the header lists.
type Rank struct {
	Rank   int    `json:"rank"`
	Host   string `json:"host"`
	Device string `json:"device"`
}

// Hosts is how many distinct hosts the ranks sit on (0 without ranks).
func (l *Log) Hosts() int {
	seen := map[string]bool{}
	for _, r := range l.Ranks {
		seen[r.Host] = true
	}
	return len(seen)
}

// Row is one buffer size's measurement.
type Row struct {
	// Size is the buffer in bytes (nccl-tests' size column), Count the
	// elements, Type their type, Redop the reduction ("sum", "none"),
	// Root the root rank (-1 for none or when the log has no column).
	Size  units.Bytes `json:"size"`
	Count int64       `json:"count"`
	Type  string      `json:"type"`
	Redop string      `json:"redop"`
	Root  int         `json:"root"`
	// Out and In are the out-of-place and in-place measurements.
	Out Measure `json:"out_of_place"`
	In  Measure `json:"in_place"`
}

// Measure is one run of a size: time in µs, bandwidths in GB/s; OK is
// false when the log says N/A.
type Measure struct {
	Time  float64 `json:"time_us"`
	AlgBW float64 `json:"algbw_gbps"`
	BusBW float64 `json:"busbw_gbps"`
	OK    bool    `json:"ok"`
}

// columns says where each field of a row is: -1 when the row has none.
type columns struct {
	size, count, typ, redop, root int
	out, in                       [3]int // time, algbw, busbw
	n                             int    // fields a row has
}

// defaultColumns is the layout without a header: 13 fields with a root
// column, 12 without.
func defaultColumns(n int) columns {
	if n == 12 {
		return columns{0, 1, 2, 3, -1, [3]int{4, 5, 6}, [3]int{8, 9, 10}, 12}
	}
	return columns{0, 1, 2, 3, 4, [3]int{5, 6, 7}, [3]int{9, 10, 11}, 13}
}

// headerColumns reads the layout from a column header ("size count type
// redop root time algbw busbw #wrong time algbw busbw #wrong"), and
// whether the line is one.
func headerColumns(line string) (columns, bool) {
	f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "#"))
	if len(f) < 8 || f[0] != "size" || f[1] != "count" {
		return columns{}, false
	}
	c := columns{size: -1, count: -1, typ: -1, redop: -1, root: -1, out: [3]int{-1, -1, -1}, in: [3]int{-1, -1, -1}, n: len(f)}
	times := 0
	for i, name := range f {
		switch name {
		case "size":
			c.size = i
		case "count":
			c.count = i
		case "type":
			c.typ = i
		case "redop":
			c.redop = i
		case "root":
			c.root = i
		case "time", "algbw", "busbw":
			k := slices.Index([]string{"time", "algbw", "busbw"}, name)
			if name == "time" {
				times++
			}
			if times == 1 {
				c.out[k] = i
			} else if times == 2 {
				c.in[k] = i
			}
		}
	}
	return c, c.size >= 0 && c.out[0] >= 0
}

// Parse reads a log from r.
func Parse(r io.Reader) (*Log, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1024), MaxLine)
	l := &Log{}
	var cols *columns
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") {
			if c, ok := headerColumns(trimmed); ok {
				cols = &c
			}
			if err := l.comment(trimmed, n); err != nil {
				return nil, err
			}
			continue
		}
		f := strings.Fields(trimmed)
		if len(f) == 0 || !isDigits(f[0]) {
			continue // nccl-tests' other output, or a launcher's
		}
		c := defaultColumns(len(f))
		if cols != nil {
			c = *cols
		}
		row, err := parseRow(f, c)
		if err != nil {
			return nil, fmt.Errorf("nccl-tests log, line %d: %w", n, err)
		}
		if len(l.Rows) == MaxRows {
			return nil, fmt.Errorf("nccl-tests log, line %d: more than %d rows", n, MaxRows)
		}
		l.Rows = append(l.Rows, row)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("nccl-tests log: a line is longer than %d bytes (after %d rows)", MaxLine, len(l.Rows))
		}
		return nil, err
	}
	if len(l.Rows) == 0 {
		return nil, fmt.Errorf("nccl-tests log: no rows of measurements (size, count, type, …, time, algbw, busbw)")
	}
	return l, nil
}

// isDigits reports whether s is a whole number's digits: a row starts
// with its size.
func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// comment reads the header lines the log needs: the collective's name and
// the ranks.
func (l *Log) comment(line string, n int) error {
	body := strings.TrimSpace(strings.TrimPrefix(line, "#"))
	if name, ok := strings.CutPrefix(body, "Collective test starting:"); ok {
		l.Op = strings.TrimSuffix(strings.TrimSpace(name), "_perf")
		return nil
	}
	f := strings.Fields(body)
	if len(f) < 2 || f[0] != "Rank" || !isDigits(f[1]) || len(f[1]) > 9 {
		return nil
	}
	if len(l.Ranks) == MaxRanks {
		return fmt.Errorf("nccl-tests log, line %d: more than %d ranks", n, MaxRanks)
	}
	r := Rank{}
	r.Rank, _ = strconv.Atoi(f[1])
	if i := slices.Index(f, "on"); i >= 0 && i+1 < len(f) {
		r.Host = f[i+1]
	}
	if i := strings.LastIndexByte(body, ']'); i >= 0 {
		r.Device = strings.TrimSpace(body[i+1:])
	}
	l.Ranks = append(l.Ranks, r)
	return nil
}

// parseRow reads one row's fields by the layout c.
func parseRow(f []string, c columns) (Row, error) {
	if len(f) < c.n {
		return Row{}, fmt.Errorf("%d fields; the layout needs %d", len(f), c.n)
	}
	row := Row{Root: -1}
	var err error
	field := func(i int) string {
		if i < 0 {
			return ""
		}
		return f[i]
	}
	size, err := strconv.ParseInt(f[c.size], 10, 64)
	if err != nil || size < 0 || size > 1<<50 {
		return Row{}, fmt.Errorf("size %q: want a byte count 0..2^50", f[c.size])
	}
	row.Size = units.Bytes(size)
	if c.count >= 0 {
		if row.Count, err = strconv.ParseInt(f[c.count], 10, 64); err != nil || row.Count < 0 {
			return Row{}, fmt.Errorf("count %q: want a whole number of elements", f[c.count])
		}
	}
	row.Type, row.Redop = field(c.typ), field(c.redop)
	if c.root >= 0 {
		if row.Root, err = strconv.Atoi(f[c.root]); err != nil {
			return Row{}, fmt.Errorf("root %q: want a rank or -1", f[c.root])
		}
	}
	if row.Out, err = measure(f, c.out, "out-of-place"); err != nil {
		return Row{}, err
	}
	if row.In, err = measure(f, c.in, "in-place"); err != nil {
		return Row{}, err
	}
	return row, nil
}

// measure reads a time and two bandwidths; N/A makes it absent.
func measure(f []string, at [3]int, which string) (Measure, error) {
	var v [3]float64
	for k, i := range at {
		if i < 0 || i >= len(f) || f[i] == "N/A" {
			return Measure{}, nil
		}
		x, err := strconv.ParseFloat(f[i], 64)
		if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return Measure{}, fmt.Errorf("%s %s %q: want a number at least 0", which, [3]string{"time", "algbw", "busbw"}[k], f[i])
		}
		v[k] = x
	}
	return Measure{Time: v[0], AlgBW: v[1], BusBW: v[2], OK: true}, nil
}
