package scene_test

import (
	"fmt"
	"os"
	"strings"

	"paraplay/sim/scene"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

func ExampleBuild() {
	const ms = units.Millisecond
	tl := &timeline.Timeline{
		Title: "Two GPUs",
		GPUs:  []timeline.GPU{{ID: 0, Name: "GPU 0"}, {ID: 1, Name: "GPU 1"}},
		Links: []timeline.Link{{ID: 0, From: 0, To: 1}},
		Spans: []timeline.Span{
			{GPU: 0, Kind: timeline.Forward, Start: 0, End: ms},
			{GPU: 1, Kind: timeline.Forward, Start: 0, End: 2 * ms},
		},
		Transfers: timeline.TransfersOf([]timeline.Transfer{{Path: []int{0}, Src: 0, Dst: 1, Bytes: units.MiB, Start: ms, End: 3 * ms}}...),
		End:       3 * ms,
	}
	at := 1500 * units.Microsecond
	dl := scene.Build(tl, at, scene.Options{})
	for _, id := range []string{"gpu/0/state", "gpu/1/state", "header/time"} {
		for _, it := range dl.Items {
			if it.ID == id {
				fmt.Printf("%s: %s\n", id, it.Text)
			}
		}
	}
	fmt.Println("GPU 1 is", scene.StateAt(tl, 1, at))

	var svg strings.Builder
	if err := scene.WriteSVG(&svg, dl); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	first, _, _ := strings.Cut(svg.String(), "\n")
	fmt.Println(first)
	// Output:
	// gpu/0/state: sending
	// gpu/1/state: forward
	// header/time: t = 1.5ms / 3ms
	// GPU 1 is forward
	// <svg xmlns="http://www.w3.org/2000/svg" width="960" height="600" viewBox="0 0 960 600">
}
