package site_test

import (
	"fmt"

	"paraplay/site"
)

func ExampleRenderArticle() {
	src := "---\ntitle: Ring\norder: 1\n---\n```sim\ngpus: 8\n```\n"
	a, err := site.RenderArticle("ring.md", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Slug, a.Title)
	fmt.Print(a.Body)

	_, err = site.RenderArticle("bad.md", []byte("---\ntitle: Bad\n---\n```sim\ngpus: 1\n```\n"))
	fmt.Println(err)
	// Output:
	// ring Ring
	// <figure class="demo">
	// <iframe src="play.html?gpus=8" title="Live demo: 8 GPUs, ring all-reduce of 256MiB over 100GB/s links (α=5µs)" loading="lazy" width="100%" allowfullscreen></iframe>
	// <figcaption>8 GPUs, ring all-reduce of 256MiB over 100GB/s links (α=5µs) · <a href="play.html?gpus=8">open full page</a></figcaption>
	// </figure>
	// bad.md:5: sim block: gpus: is 1; allowed 2..64
}
