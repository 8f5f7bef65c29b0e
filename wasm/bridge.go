//go:build js && wasm

package main

import (
	"bytes"
	"net/url"
	"strings"
	"syscall/js"

	"paraplay/sim/jsonout"
	"paraplay/sim/units"
	"paraplay/wasm/playground"
)

// bridge publishes the app as window.paraplay for the host page and the
// browser tests: state properties overwritten every frame, and functions
// the page calls. Functions that change playback only queue the change for
// the next Update; run simulates at once and returns its result.
type bridge struct {
	obj js.Value
	fns []js.Func // kept alive for the page's lifetime
}

func newBridge(g *game) *bridge {
	b := &bridge{obj: js.Global().Get("Object").New()}
	for k, v := range map[string]any{"frames": 0, "simTime": 0, "end": 0, "speed": 1, "fps": 0, "buildMs": 0, "drawMs": 0, "repainted": 0, "fullRedraw": false,
		"state": "loading", "error": "", "loop": true, "hover": "", "hoverText": "", "query": ""} {
		b.obj.Set(k, v)
	}
	clock := func(f func(c *playground.Clock, args []js.Value)) func([]js.Value) any {
		return func(args []js.Value) any {
			g.do(func(c *playground.Clock) { f(c, args) })
			return nil
		}
	}
	b.fn("run", func(args []js.Value) any {
		q, err := url.ParseQuery(strings.TrimPrefix(arg(args, 0), "?"))
		ss := newSession(q, err)
		g.show(ss)
		return b.result(ss)
	})
	b.fn("importTraces", func(args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeObject {
			return js.Null()
		}
		return b.importTraces(g, args[0])
	})
	b.fn("current", func([]js.Value) any { return b.result(g.current()) })
	b.fn("trace", func([]js.Value) any {
		ss := g.current()
		if ss == nil || ss.tl == nil {
			return ""
		}
		var buf bytes.Buffer
		if err := ss.tl.WriteChromeTrace(&buf); err != nil {
			return ""
		}
		return buf.String()
	})
	b.fn("presets", func([]js.Value) any {
		j, err := playground.PresetsJSON(playground.Presets)
		if err != nil {
			return js.Null()
		}
		return parseJSON(string(j))
	})
	b.fn("toggle", clock(func(c *playground.Clock, _ []js.Value) { c.Toggle() }))
	b.fn("play", clock(func(c *playground.Clock, _ []js.Value) {
		if !c.Playing {
			c.Toggle()
		}
	}))
	b.fn("pause", clock(func(c *playground.Clock, _ []js.Value) { c.Playing = false }))
	b.fn("step", clock(func(c *playground.Clock, a []js.Value) { c.Step(intArg(a, 0, 1)) }))
	b.fn("seek", clock(func(c *playground.Clock, a []js.Value) { c.Seek(units.Time(floatArg(a, 0, 0))) }))
	b.fn("seekFraction", clock(func(c *playground.Clock, a []js.Value) {
		c.Seek(units.Time(floatArg(a, 0, 0) * float64(c.End)))
	}))
	b.fn("setSpeed", clock(func(c *playground.Clock, a []js.Value) { c.SetSpeed(floatArg(a, 0, 1)) }))
	b.fn("faster", clock(func(c *playground.Clock, _ []js.Value) { c.SetSpeed(c.Speed * 2) }))
	b.fn("slower", clock(func(c *playground.Clock, _ []js.Value) { c.SetSpeed(c.Speed / 2) }))
	b.fn("restart", clock(func(c *playground.Clock, _ []js.Value) { c.Restart() }))
	b.fn("toEnd", clock(func(c *playground.Clock, _ []js.Value) { c.ToEnd() }))
	b.fn("setLoop", clock(func(c *playground.Clock, a []js.Value) { c.Loop = len(a) > 0 && a[0].Truthy() }))
	js.Global().Set("paraplay", b.obj)
	return b
}

func (b *bridge) fn(name string, f func([]js.Value) any) {
	jf := js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) })
	b.fns = append(b.fns, jf)
	b.obj.Set(name, jf)
}

// runResult is what run and current return to the page, as JSON with the
// keys its json method writes.
type runResult struct {
	OK       bool
	Query    string
	Title    string
	Describe string
	Error    string
	ErrTitle string
	Params   []string
	Embed    bool
	Hide     []string
	Plan     bool
	Controls []byte // JSON
	Metrics  []byte // JSON
}

// json writes r as json.Marshal would with the keys ok, query, title,
// describe, error, errorTitle, errorParams, embed, hide, plan, controls
// and metrics (jsonout: the wasm carries no encoding/json).
func (r *runResult) json() string {
	var w jsonout.Writer
	w.Begin('{')
	w.Key("ok")
	w.Bool(r.OK)
	for _, f := range [...]struct{ k, v string }{{"query", r.Query}, {"title", r.Title}, {"describe", r.Describe},
		{"error", r.Error}, {"errorTitle", r.ErrTitle}} {
		w.Key(f.k)
		w.String(f.v)
	}
	w.Key("errorParams")
	w.Strings(r.Params)
	w.Key("embed")
	w.Bool(r.Embed)
	w.Key("hide")
	w.Strings(r.Hide)
	w.Key("plan")
	w.Bool(r.Plan)
	w.Key("controls")
	w.Raw(r.Controls)
	w.Key("metrics")
	w.Raw(r.Metrics)
	w.End('}')
	b, _ := w.Bytes() // no floats: no error
	return string(b)
}

func (b *bridge) result(ss *session) any {
	if ss == nil {
		return js.Null()
	}
	var controls, metrics []byte
	if ss.pageJSON != nil { // nil in a session made for a drawing error
		controls, metrics = ss.pageJSON()
	}
	var query string
	if ss.query != nil {
		query = ss.query().Encode()
	}
	title, describe := ss.s.Title(), ss.s.Describe()
	if ss.imported != "" || ss.query == nil {
		title, describe = "Imported trace", ss.imported
		if ss.tl != nil {
			title = ss.tl.Title
		}
	}
	r := runResult{OK: ss.ok(), Query: query, Title: title, Describe: describe,
		Error: strings.Join(ss.errLines, "\n"), ErrTitle: ss.errTitle, Params: errorParams(ss.errLines),
		Embed: ss.view.Embed, Hide: ss.view.Hide, Plan: ss.view.Plan, Controls: controls, Metrics: metrics}
	if r.Metrics == nil {
		r.Metrics = []byte("null")
	}
	if r.Controls == nil {
		r.Controls = []byte("[]")
	}
	return parseJSON(r.json())
}

// errorParams lists the parameter each error line names (the text before
// the first colon, up to a space: "size (collective.size): ..." → "size"),
// so the page can mark those controls.
func errorParams(lines []string) []string {
	var out []string
	for _, l := range lines {
		if i := strings.Index(l, ":"); i > 0 {
			p := l[:i]
			if j := strings.IndexByte(p, ' '); j > 0 {
				p = p[:j]
			}
			out = append(out, p)
		}
	}
	return out
}

// mapJSON is m as json.Marshal writes it, or "null" if it cannot be.
func mapJSON(m map[string]any) string {
	var w jsonout.Writer
	w.Map(m)
	buf, err := w.Bytes()
	if err != nil {
		return "null"
	}
	return string(buf)
}

func parseJSON(s string) js.Value { return js.Global().Get("JSON").Call("parse", s) }

func arg(args []js.Value, i int) string {
	if i < len(args) && args[i].Type() == js.TypeString {
		return args[i].String()
	}
	return ""
}

func floatArg(args []js.Value, i int, def float64) float64 {
	if i < len(args) && args[i].Type() == js.TypeNumber {
		return args[i].Float()
	}
	return def
}

func intArg(args []js.Value, i, def int) int { return int(floatArg(args, i, float64(def))) }

// publish writes the per-frame state.
func (b *bridge) publish(g *game) {
	o := b.obj
	o.Set("frames", g.frames)
	o.Set("fps", g.fps.fps)
	o.Set("buildMs", g.fps.buildMs)
	o.Set("canvasWidth", g.width) // the drawing's size in device pixels
	o.Set("canvasHeight", g.height)
	o.Set("drawMs", g.fps.drawMs)
	o.Set("repainted", g.repainted) // share of the canvas the last frame repainted
	o.Set("minText", g.minText)     // the frame's smallest text, device pixels
	g.fullRedraw = o.Get("fullRedraw").Truthy()
	switch {
	case g.cur == nil:
		o.Set("state", "loading")
	case g.clock == nil:
		o.Set("state", "error")
	case g.clock.Playing:
		o.Set("state", "playing")
	default:
		o.Set("state", "paused")
	}
	if g.cur != nil {
		o.Set("error", strings.Join(g.cur.errLines, "\n"))
	}
	if c := g.clock; c != nil {
		o.Set("simTime", float64(c.T))
		o.Set("end", float64(c.End))
		o.Set("speed", c.Speed)
		o.Set("loop", c.Loop)
	}
	o.Set("hover", g.pointer.id)
	o.Set("hoverText", g.pointer.text)
}
