package scene

import (
	"math"
	"strings"

	"paraplay/sim/units"
)

// minHit is the smallest target, in logical pixels, a pointer can hit: a
// 3-pixel packet or a 1.5-pixel link stays easy to hover and to tap.
const minHit = 8.0

// HitTest returns the ID of the inspectable thing drawn topmost at (x, y) in
// dl: "gpu/<i>", "link/<id>", "switch/<v>", "xfer/<k>", "node/<n>", or a
// strip item ("strip/span/<k>", "strip/send/<k>", "strip/collective/<k>/<i>"),
// or a plan of PlanScatter ("plan/<index>").
// Parts of a thing (a GPU's label, a link's arrowhead) answer with the
// thing's own ID, and a strip row or its label with its GPU. Headers,
// legends and the axis are not inspectable: ok is false over them and over
// empty canvas.
func HitTest(dl DrawList, x, y float64) (id string, ok bool) {
	// The geometry is tested before the ID is parsed: the pointer is
	// hit-tested every frame, over thousands of items, and most miss.
	for i := len(dl.Items) - 1; i >= 0; i-- {
		it := &dl.Items[i]
		if it.Shape == Text && !strings.HasPrefix(it.ID, "strip/label/") || !hits(it, x, y) {
			continue
		}
		if owner := ownerID(it.ID); owner != "" {
			return owner, true
		}
	}
	return "", false
}

// ownerID maps an item ID to the ID of the thing it belongs to, or "" for
// items that are not inspectable. It cuts the ID rather than splitting it,
// so that it allocates only for a strip row or label (whose owner is a GPU).
func ownerID(id string) string {
	head, rest, nested := strings.Cut(id, "/")
	switch head {
	case "gpu", "link", "switch", "xfer", "node":
		if nested {
			second, _, _ := strings.Cut(rest, "/")
			return id[:len(head)+1+len(second)]
		}
	case "long": // a failure's marker in LongRun: long/failure/<k>
		if kind, k, ok := strings.Cut(rest, "/"); ok && kind == "failure" && !strings.Contains(k, "/") {
			return id
		}
	case "plan": // a plan's square in PlanScatter: plan/<index>
		if nested && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return id
		}
	case "strip":
		kind, tail, ok := strings.Cut(rest, "/")
		if !ok {
			return ""
		}
		switch kind {
		case "row", "label":
			gpu, _, _ := strings.Cut(tail, "/")
			return "gpu/" + gpu
		case "span", "send", "collective":
			return id
		}
	}
	return ""
}

// hits reports whether (x, y) falls on it, with small targets grown to
// minHit.
func hits(it *Item, x, y float64) bool {
	switch it.Shape {
	case Rect:
		gx, gy := max(0, (minHit-it.W)/2), max(0, (minHit-it.H)/2)
		return x >= it.X-gx && x <= it.X+it.W+gx && y >= it.Y-gy && y <= it.Y+it.H+gy
	case Line:
		return segmentDistance(x, y, it.X, it.Y, it.X2, it.Y2) <= max(strokeOf(it), minHit)/2
	case Text:
		w := textWidth(it.Text, it.Size)
		x0 := it.X
		switch it.Anchor {
		case AnchorMiddle:
			x0 -= w / 2
		case AnchorEnd:
			x0 -= w
		}
		return x >= x0 && x <= x0+w && y >= it.Y-it.Size && y <= it.Y+it.Size*0.25
	}
	return false
}

func strokeOf(it *Item) float64 {
	if it.StrokeWidth > 0 {
		return it.StrokeWidth
	}
	return 1
}

// segmentDistance is the distance from (px, py) to the segment (x1, y1)–(x2, y2).
func segmentDistance(px, py, x1, y1, x2, y2 float64) float64 {
	dx, dy := x2-x1, y2-y1
	l2 := dx*dx + dy*dy
	f := 0.0
	if l2 > 0 {
		f = max(0, min(1, ((px-x1)*dx+(py-y1)*dy)/l2))
	}
	return math.Hypot(px-(x1+f*dx), py-(y1+f*dy))
}

// StripTimeAt maps x on dl's timeline strip to an instant of a run that
// ends at end, clamped into [0, end], for scrubbing with a pointer. inside
// reports whether (x, y) lies over the strip (between the ends of the axis,
// and within the playhead's height), where a drag should start; a drag in
// progress keeps using t wherever the pointer goes.
func StripTimeAt(dl DrawList, end units.Time, x, y float64) (t units.Time, inside bool) {
	axis, ok1 := item(dl, "axis")
	head, ok2 := item(dl, "playhead")
	if !ok1 || !ok2 || axis.X2 <= axis.X || end <= 0 {
		return 0, false
	}
	f := (x - axis.X) / (axis.X2 - axis.X)
	t = units.Time(math.Round(max(0, min(1, f)) * float64(end)))
	inside = f >= -0.01 && f <= 1.01 && y >= head.Y && y <= head.Y2
	return t, inside
}

// item returns the last item with the given ID.
func item(dl DrawList, id string) (*Item, bool) {
	for i := len(dl.Items) - 1; i >= 0; i-- {
		if dl.Items[i].ID == id {
			return &dl.Items[i], true
		}
	}
	return nil, false
}
