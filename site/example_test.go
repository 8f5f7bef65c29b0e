package site_test

import (
	"fmt"
	"strings"

	"paraplay/site"
)

func ExampleRenderArticle() {
	src := "---\ntitle: Ring\norder: 1\n---\n```sim\ngpus: 8\nview:\n  poster: 7ms\n```\n"
	a, err := site.RenderArticle("ring.md", []byte(src), site.Library{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Slug, a.Title)
	for _, p := range a.Posters {
		fmt.Println(p.Path, strings.HasPrefix(string(p.SVG), "<svg"))
	}
	for line := range strings.SplitSeq(string(a.Body), "\n") {
		if strings.HasPrefix(line, "<figcaption>") {
			fmt.Println(line)
		}
	}

	_, err = site.RenderArticle("bad.md", []byte("---\ntitle: Bad\n---\n```sim\ngpus: 65\n```\n"), site.Library{})
	fmt.Println(err)
	// Output:
	// ring Ring
	// posters/ring-1.svg true
	// <figcaption>8 GPUs, ring all-reduce of 256MiB over 100GB/s links (α=5µs). <span class="metrics">iteration 10.8 ms · all-reduce (ring): simulated 4.77 ms; α–β formula 2(n−1)α + 2(n−1)/n·S/B = 4.77 ms · busbw 98.5 GB/s</span> · <a href="play.html?gpus=8">open full page</a> · <a href="embed.html?demo=gpus%3D8" title="iframe code for web pages and reveal.js, a link for Google Slides, a GIF for PowerPoint">embed this</a></figcaption>
	// bad.md:5: sim block: gpus: is 65; allowed 1..64 for strategy data-parallel
}
