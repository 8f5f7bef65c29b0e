//go:build js && wasm

package main

import (
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"paraplay/sim/plan"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/wasm/playground"
)

// The plan tab: a plan search (package plan) for the scenario on show, run
// in slices between frames, drawn as scene.PlanScatter over the canvas.
// Clicking a plan's square records its address in planState().picked and
// hides the tab; the page (plan.js) then runs it like any other address.
//
// Bridge: plan(query) starts a search for the scenario of query (the page
// passes the current one) and shows the tab, returning {ok, error};
// planView(bool) shows or hides the tab; planState() returns {active,
// shown, phase, done, total, fraction, plans, screened, outOfMemory,
// bounded, dominated, simulated, best (seconds), costAxis (the cost axis
// is drawn), bestX, bestY (the best
// plan's square in logical pixels), width, height, picked, pickedN, error}.

// stepBudget is the time a frame may spend on the search: the page keeps
// animating at about 40 frames a second on a slow machine.
const stepBudget = 12 * time.Millisecond

// rebuildEvery limits how often the scatter is laid out while the search
// runs.
const rebuildEvery = 150 * time.Millisecond

type planTab struct {
	// mu guards what the bridge hands over and reads: next, showReq and
	// state. The search itself belongs to the game goroutine.
	mu      sync.Mutex
	next    *plan.Search
	showReq *bool
	state   string // planState()'s JSON

	search  *plan.Search
	shown   bool
	dl      scene.DrawList
	built   time.Time
	final   bool // dl shows the finished search
	picked  string
	pickedN int
}

func newPlanTab(b *bridge) *planTab {
	pt := &planTab{state: `{"active":false,"shown":false}`}
	b.fn("plan", func(args []js.Value) any {
		q, err := url.ParseQuery(strings.TrimPrefix(arg(args, 0), "?"))
		var s *plan.Search
		if err == nil {
			var sc scenario.Scenario
			if sc, err = scenario.FromQuery(q); err == nil {
				var cfg plan.Config
				if cfg, err = playground.PlanConfig(sc); err == nil {
					s, err = plan.New(cfg)
				}
			}
		}
		if err != nil {
			return parseJSON(mapJSON(map[string]any{"ok": false, "error": err.Error()}))
		}
		show := true
		pt.mu.Lock()
		pt.next, pt.showReq = s, &show
		pt.mu.Unlock()
		return parseJSON(mapJSON(map[string]any{"ok": true, "error": ""}))
	})
	b.fn("planView", func(args []js.Value) any {
		show := len(args) > 0 && args[0].Truthy()
		pt.mu.Lock()
		pt.showReq = &show
		pt.mu.Unlock()
		return nil
	})
	b.fn("planState", func([]js.Value) any {
		pt.mu.Lock()
		defer pt.mu.Unlock()
		return parseJSON(pt.state)
	})
	return pt
}

// update runs on the game goroutine at each tick: it takes the page's
// requests, advances the search for at most stepBudget, handles the pointer
// over the scatter, and reports whether the tab is on show (then the
// animation does not advance).
func (pt *planTab) update(g *game) bool {
	pt.mu.Lock()
	if pt.next != nil {
		pt.search, pt.next, pt.built, pt.final = pt.next, nil, time.Time{}, false
	}
	if pt.showReq != nil {
		pt.shown, pt.showReq = *pt.showReq && pt.search != nil, nil
	}
	pt.mu.Unlock()
	if pt.search == nil {
		return false
	}
	start := time.Now()
	for !pt.search.Done() && time.Since(start) < stepBudget {
		pt.search.Step(1)
	}
	resized := pt.dl.Width != g.width || pt.dl.Height != g.height
	if pt.shown && (resized || pt.built.IsZero() || time.Since(pt.built) > rebuildEvery && !pt.final) {
		pt.dl = scene.PlanScatter(pt.search.Plans(), pt.search.Progress(), g.planOptions())
		pt.built, pt.final = start, pt.search.Done()
	}
	if pt.shown {
		pt.pointer(g)
	}
	pt.publish()
	return pt.shown
}

// pointer names the plan under the pointer and picks it on a click.
func (pt *planTab) pointer(g *game) {
	x, y := ebiten.CursorPosition()
	if ids := inpututil.AppendJustPressedTouchIDs(nil); len(ids) > 0 {
		x, y = ebiten.TouchPosition(ids[0])
	}
	g.pointer.id, g.pointer.text = "", ""
	id, ok := scene.HitTest(pt.dl, float64(x), float64(y))
	if !ok {
		return
	}
	p := pt.plan(id)
	if p == nil {
		return
	}
	g.pointer.id, g.pointer.text = id, scene.DescribePlan(p)
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) || len(inpututil.AppendJustPressedTouchIDs(nil)) > 0 {
		pt.picked, pt.pickedN, pt.shown = playground.PlanQuery(p), pt.pickedN+1, false
	}
}

// plan is the plan whose square has the ID id ("plan/<index>").
func (pt *planTab) plan(id string) *plan.Plan {
	i, err := strconv.Atoi(strings.TrimPrefix(id, "plan/"))
	if err != nil {
		return nil
	}
	for _, p := range pt.search.Plans() {
		if p.Index() == i {
			return p
		}
	}
	return nil
}

// publish updates what planState() returns (playground.PlanStateJSON:
// the map of boxed values this was cost the wasm about 6 KB of code).
func (pt *planTab) publish() {
	pr := pt.search.Progress()
	st := playground.PlanState{Active: true, Shown: pt.shown, Phase: pr.Phase, Done: pr.Done, Total: pr.Total, Fraction: pr.Fraction(),
		Plans: pr.Plans, Screened: len(pt.search.Plans()), OutOfMemory: pr.OutOfMemory, Bounded: pr.Bounded,
		Dominated: pr.Dominated, Simulated: pr.Simulated, Best: pr.Best.Seconds(), Width: pt.dl.Width, Height: pt.dl.Height,
		Picked: pt.picked, PickedN: pt.pickedN}
	for _, it := range pt.dl.Items {
		if it.ID == "plan/axis/cost" {
			st.CostAxis = true // the scatter shows dollars per million tokens
			break
		}
	}
	for _, p := range pt.search.Plans() {
		if p.Status != plan.Best {
			continue
		}
		id := "plan/" + strconv.Itoa(p.Index())
		for _, it := range pt.dl.Items {
			if it.ID == id && it.Shape == scene.Rect {
				st.BestX, st.BestY, st.BestID = it.X+it.W/2, it.Y+it.H/2, id
				break
			}
		}
	}
	buf, err := playground.PlanStateJSON(st)
	if err != nil { // a NaN
		buf = []byte(`{"active":true,"shown":false,"error":"plan state: not a number"}`)
	}
	pt.mu.Lock()
	pt.state = string(buf)
	pt.mu.Unlock()
}

// draw replays the scatter when the tab is on show, and says whether it did.
func (pt *planTab) draw(g *game, screen *ebiten.Image) bool {
	if !pt.shown || g.fonts == nil || pt.dl.Items == nil {
		return false
	}
	bg := pt.dl.Background
	bg.A = 255
	g.batch.box(screen, 0, 0, g.width, g.height, bg)
	g.batch.addItems(screen, g.fonts, pt.dl.Items)
	g.batch.flush(screen)
	return true
}

// planOptions are the options the plan scatter is drawn with: compact in
// an embedded demo as narrow as a phone's column, as its poster is.
func (g *game) planOptions() scene.Options {
	embed := g.cur != nil && g.cur.view.Embed
	return scene.Options{Width: g.width, Height: g.height, Compact: embed && compactCanvas(g.width)}
}
