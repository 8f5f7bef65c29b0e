package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

const exportUsage = `paraplay export draws a scenario as a picture or an animation for slides.

Usage:
  paraplay export FILE --format gif|png|svg --out OUT [flags]
  paraplay export --url 'play.html?gpus=8&algo=ring' --format gif --out ring.gif [flags]

  gif   an animation of the run from --from to --to, paced as the browser
        plays it (--speed multiplies that), --fps frames per second
  png   one frame, at --at (default: the end of the run)
  svg   the same frame as a vector drawing

Examples:
  paraplay export sim/scenario/testdata/ring4.yaml --format gif --out ring.gif
  paraplay export --url 'play.html?strategy=training&model=llama3-8b&nodes=8' --format gif --width 800 --height 450 --fps 15 --out llama.gif

Flags:
`

// exportFlags are the export command's settings, as typed.
type exportFlags struct {
	url, format, out    string
	width, height, fps  float64
	from, to, at, speed string
	view, theme         string
	present, quiet      bool
}

func exportCommand(args []string, stdout, stderr io.Writer) int {
	var f exportFlags
	fs := exportFlagSet(&f, stderr)
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	job, err := f.job(pos)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay export: %v\n", err)
		var rf runFailed
		if errors.As(err, &rf) {
			return exitError
		}
		return exitUsage
	}
	if err := job.run(stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "paraplay export: %v\n", err)
		var ue usageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitError
	}
	return 0
}

// exportFlagSet declares the export command's flags into f.
func exportFlagSet(f *exportFlags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("paraplay export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, exportUsage); fs.PrintDefaults() }
	fs.StringVar(&f.url, "url", "", "a playground address (play.html?…) or its query string, instead of FILE")
	fs.StringVar(&f.format, "format", "", "gif, png or svg (default: from --out's extension)")
	fs.StringVar(&f.out, "out", "", "the file to write (- for standard output)")
	fs.Float64Var(&f.width, "width", scene.DefaultWidth, fmt.Sprintf("picture width in pixels, %d..%d (a GIF frame at most %d M pixels, e.g. 8192×8192)", scene.MinSize, scene.MaxSize, scene.MaxGIFPixels>>20))
	fs.Float64Var(&f.height, "height", scene.DefaultHeight, fmt.Sprintf("picture height in pixels, %d..%d", scene.MinSize, scene.MaxSize))
	fs.Float64Var(&f.fps, "fps", 15, fmt.Sprintf("GIF frames per second, %d..%d", scene.MinFPS, scene.MaxFPS))
	fs.StringVar(&f.from, "from", "0", "GIF: the simulated instant to start at (e.g. 2ms)")
	fs.StringVar(&f.to, "to", "", "GIF: the simulated instant to stop at (default: the end of the run)")
	fs.StringVar(&f.at, "at", "", "PNG and SVG: the simulated instant to draw (default: the end of the run)")
	fs.StringVar(&f.speed, "speed", "", "GIF: playback speed multiplier, 0.01..1000 (default: the URL's speed, else 1)")
	fs.StringVar(&f.view, "view", "all", "the part to draw: "+strings.Join(scene.Views, ", "))
	fs.StringVar(&f.theme, "theme", "", "light or dark (default: dark with --present, else light)")
	fs.BoolVar(&f.present, "present", false, "presenter mode: larger text and thicker lines")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress bar")
	return fs
}

// usageError is a problem with the command line found after the run (a
// time past its end).
type usageError struct{ error }

// runFailed is a valid scenario whose simulation failed (exit 1, not 2).
type runFailed struct{ error }

// exportJob is a checked command line with its run.
type exportJob struct {
	tl       *timeline.Timeline
	format   string
	out      string
	opt      scene.Options
	from, to units.Time
	at       units.Time
	atSet    bool
	speed    float64
	fps      float64
	quiet    bool
	source   string
}

// job checks the flags, reads the scenario and runs it.
func (f *exportFlags) job(pos []string) (*exportJob, error) {
	j, errs := f.picture()
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	s, query, err := f.scenario(pos)
	if err != nil {
		errs = append(errs, err)
	}
	j.source = "--url"
	if len(pos) == 1 {
		j.source = pos[0]
	}
	j.speed = 1
	if sp := f.speed; sp != "" || query.Has("speed") {
		name := "--speed"
		if sp == "" {
			sp, name = query.Get("speed"), "the URL's speed"
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(sp), 64)
		if err != nil || !(v >= 0.01 && v <= 1000) {
			bad("%s %q; want a multiplier 0.01..1000", name, sp)
		}
		j.speed = v
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	tl, err := run.Simulate(s)
	if err != nil {
		err = fmt.Errorf("%s: %w", j.source, err)
		if exitCode(err) == exitError {
			err = runFailed{err}
		}
		return nil, err
	}
	j.tl = tl
	return j, nil
}

// picture checks the flags that say what to draw and when (format, view,
// theme, size, frame rate, --from, --to, --at), each error naming its flag.
func (f *exportFlags) picture() (*exportJob, []error) {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	j := &exportJob{format: strings.ToLower(f.format), out: f.out, fps: f.fps, quiet: f.quiet}
	if f.out == "" {
		bad("--out is required: the file to write (- for standard output)")
	}
	if j.format == "" {
		j.format = strings.TrimPrefix(strings.ToLower(extension(f.out)), ".")
	}
	switch j.format {
	case "gif", "png", "svg":
	default:
		bad("--format %q; want gif, png or svg", j.format)
	}
	view, err := scene.ParseView(f.view)
	if err != nil {
		bad("--view %q; want one of %s", f.view, strings.Join(scene.Views, ", "))
	}
	theme := scene.Theme(f.theme)
	switch {
	case f.theme == "" && f.present:
		theme = scene.ThemeDark
	case f.theme == "light":
		theme = scene.ThemeLight
	case f.theme != "" && f.theme != "dark":
		bad("--theme %q; want light or dark", f.theme)
	}
	j.opt = scene.Options{Width: f.width, Height: f.height, View: view, Theme: theme, Present: f.present}
	if err := checkSize("--width", f.width); err != nil {
		errs = append(errs, err)
	}
	if err := checkSize("--height", f.height); err != nil {
		errs = append(errs, err)
	}
	if j.format == "gif" && len(errs) == 0 { // before the run, which may be long
		if err := scene.CheckGIFArea(j.opt); err != nil {
			errs = append(errs, fmt.Errorf("--width × --height: %v", flagNames(err)))
		}
	}
	if !(f.fps >= scene.MinFPS && f.fps <= scene.MaxFPS) {
		bad("--fps %v; want %d..%d frames per second", f.fps, scene.MinFPS, scene.MaxFPS)
	}
	j.from = parseTimeFlag("--from", f.from, &errs)
	if f.to != "" {
		j.to = parseTimeFlag("--to", f.to, &errs)
	}
	if f.at != "" {
		j.at, j.atSet = parseTimeFlag("--at", f.at, &errs), true
	}
	return j, errs
}

// checkSize names the flag and its range for a bad picture size.
func checkSize(name string, v float64) error {
	if !(v >= scene.MinSize && v <= scene.MaxSize) {
		return fmt.Errorf("%s %v; want %d..%d pixels", name, v, scene.MinSize, scene.MaxSize)
	}
	return nil
}

func parseTimeFlag(name, v string, errs *[]error) units.Time {
	if strings.TrimSpace(v) == "0" {
		return 0
	}
	t, err := units.ParseTime(v)
	if err != nil {
		*errs = append(*errs, fmt.Errorf("%s %q: %v", name, v, err))
		return 0
	}
	if t < 0 {
		*errs = append(*errs, fmt.Errorf("%s %q; want an instant ≥ 0", name, v))
	}
	return t
}

// extension is the file name's extension, "" for standard output.
func extension(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 && !strings.ContainsAny(path[i:], `/\`) {
		return path[i:]
	}
	return ""
}

// scenario reads FILE or decodes --url through the scenario's URL codec;
// it also returns the URL's query (empty for a file) for the viewer's own
// parameters.
func (f *exportFlags) scenario(pos []string) (scenario.Scenario, url.Values, error) {
	switch {
	case f.url != "" && len(pos) > 0:
		return scenario.Scenario{}, nil, fmt.Errorf("give a scenario FILE or --url, not both")
	case f.url != "":
		raw := f.url
		if i := strings.IndexByte(raw, '?'); i >= 0 {
			raw = raw[i+1:]
		}
		if i := strings.IndexByte(raw, '#'); i >= 0 {
			raw = raw[:i]
		}
		q, err := url.ParseQuery(raw)
		if err != nil {
			return scenario.Scenario{}, nil, fmt.Errorf("--url: %v", err)
		}
		s, err := scenario.FromQuery(q)
		if err != nil {
			return s, q, fmt.Errorf("--url: invalid scenario:\n%s", indent(err))
		}
		return s, q, nil
	case len(pos) == 1:
		data, err := os.ReadFile(pos[0])
		if err != nil {
			return scenario.Scenario{}, nil, err
		}
		s, err := scenario.Parse(data)
		if err != nil {
			return s, nil, fmt.Errorf("%s: invalid scenario:\n%s", pos[0], indent(err))
		}
		return s, url.Values{}, nil
	}
	return scenario.Scenario{}, nil, fmt.Errorf("want one scenario FILE or --url, got %d arguments", len(pos))
}

// run draws the picture and writes it to the output.
func (j *exportJob) run(stdout, stderr io.Writer) (err error) {
	end := j.tl.End
	frames := scene.NewFrames(j.tl)
	var write func(io.Writer) error
	switch j.format {
	case "gif":
		a := scene.Animation{Options: j.opt, FPS: j.fps, From: j.from, To: j.to, Speed: j.speed}
		if err := a.Validate(end); err != nil {
			return usageError{flagNames(err)}
		}
		bar := newProgress(stderr, j.quiet)
		write = func(w io.Writer) error {
			defer bar.done()
			return scene.WriteGIF(w, frames, a, bar.update)
		}
	case "png", "svg":
		at := end
		if j.atSet {
			if j.at > end {
				return usageError{fmt.Errorf("--at %v; want 0..%v (the run's end)", j.at, end)}
			}
			at = j.at
		}
		dl := frames.Build(at, j.opt)
		write = func(w io.Writer) error {
			if j.format == "png" {
				return writePNG(w, dl)
			}
			return scene.WriteSVG(w, dl)
		}
	}
	if j.out == "-" {
		bw := bufio.NewWriter(stdout)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	return writeFile(j.out, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// flagNames rewrites the scene's field names as this command's flags.
func flagNames(err error) error {
	s := err.Error()
	for _, r := range [][2]string{{"scene: fps is", "--fps"}, {"scene: speed is", "--speed"},
		{"scene: from is", "--from"}, {"scene: to is", "--to"}, {"scene: from", "--from"},
		{"lower width or height", "lower --width or --height"}, {"scene: ", ""}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	return errors.New(s)
}

// progress draws a bar on stderr, redrawn when the percentage changes.
type progress struct {
	w     io.Writer
	off   bool
	last  int
	shown bool
}

func newProgress(w io.Writer, quiet bool) *progress { return &progress{w: w, off: quiet, last: -1} }

const barWidth = 30

func (p *progress) update(done, total int) {
	if p.off || total <= 0 {
		return
	}
	pct := 100 * done / total
	if pct == p.last {
		return
	}
	p.last, p.shown = pct, true
	n := barWidth * done / total
	fmt.Fprintf(p.w, "\rexport [%s%s] %3d%% %d/%d frames", strings.Repeat("#", n), strings.Repeat(".", barWidth-n), pct, done, total)
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprintln(p.w)
	}
}

// writePNG rasterizes dl and writes it as a PNG image. It lives here, not
// in sim/scene: importing image/png registers its decoder, which the
// browser build would then carry (about 26 KB of gzipped wasm) for nothing.
func writePNG(w io.Writer, dl scene.DrawList) error {
	r, err := scene.NewRaster()
	if err != nil {
		return err
	}
	img, err := r.Draw(dl)
	if err != nil {
		return err
	}
	return png.Encode(w, img)
}
