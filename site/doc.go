// Package site turns the Markdown articles in docs/ into ParaPlay's static
// web site.
//
// Each article is a Markdown file with a front matter block (title, summary,
// order) between two "---" lines. A fenced code block whose language is
// "sim" holds a scenario in YAML; it becomes a live demo: an <iframe> on
// play.html whose query string is the scenario's URL encoding. A scenario
// that does not parse fails the build with "file.md:LINE: message", where
// LINE points into the Markdown file, so authors find the mistake at once.
//
// The pieces, in the order data flows through them:
//
//	ParseFrontMatter   leading ---/YAML/--- block → FrontMatter + body
//	RenderArticle      front matter + Markdown (goldmark) → Article
//	Build              docs/*.md → out/<slug>.html, out/index.html, static/ copied
//	FileServer         serves the output with the right MIME types and gzip
//
// Nothing here talks to the network: pages reference only files of the site
// itself, so no request leaves it.
package site
