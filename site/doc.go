// Package site turns the Markdown articles in docs/ into ParaPlay's static
// web site.
//
// Each article is a Markdown file with a front matter block (title, summary,
// order, theme, tags, ideas, kind) between two "---" lines. newMarkdown is
// the one place goldmark is configured (GFM, footnotes, typographer, heading
// IDs and a table of contents, chroma highlighting with CSS classes, math
// kept intact by the passthrough extension, citations, glossary links).
//
// A fenced code block whose language is "sim" holds a scenario in YAML plus
// optional display options under a view: key (see demoView). At build time
// the scenario is validated, run with sim/run, and drawn with sim/scene as an
// SVG poster at one instant, with the run's key numbers as the caption. The
// figure breaks out of the text column to 75rem (figureWidth), where the
// poster's smallest text reads at 11 CSS px or more (posterMinText). A
// viewport narrower than 640 px (a phone) shows instead, through the
// figure's <picture>, a compact poster laid out for its column
// (scene.Options.Compact, 340×440, text at least 12 px). In
// the page, demo.js replaces the poster with an iframe of play.html?embed=1&…
// only when the reader presses play; a figure marked view: {autoplay: true}
// also starts when it scrolls into view, but only the first such figure and
// only while no other demo runs. Without JavaScript the poster and caption
// remain. A scenario that does not parse fails the build with
// "file.md:LINE: message", where LINE points into the Markdown file. A
// block with view.compare is a table instead of a demo: of training plans
// priced by the planner's screen (plantable.go), or, with view.sweep, of a
// lone collective's simulated times at several buffer sizes, one column
// per variant (sweeptable.go).
//
// Math ($…$, $$…$$) is typeset once per build by KaTeX from npm (one node
// process for every formula of the site); pages then need only KaTeX's
// stylesheet and fonts, served from the site. Citations [@key] resolve
// against docs/references.yaml, numbered per article; an unknown key fails
// the build, and so does citing a paper that references.yaml marks
// excluded (surveyed but off-topic; references.html lists those apart, with
// the reason). glossary.yaml's terms are linked from their first use.
// docs/coverage.yaml copies the survey's article plan (which surveyed paper
// each article must cite); TestCoverage checks the written articles against
// it and logs the papers still waiting for an unwritten article. Its
// mechanisms map says, for every surveyed paper, whether ParaPlay runs the
// paper's own mechanism (simulated, partial, prose or off-topic), with the
// scenario keys and the demo that run it; references.html shows the status
// beside each paper, and TestMechanisms checks each entry's demo section and
// keys against the articles and the scenario's field table.
//
// The pieces, in the order data flows through them:
//
//	LoadLibrary        references.yaml + glossary.yaml + coverage.yaml's mechanisms → Library
//	ParseFrontMatter   leading ---/YAML/--- block → FrontMatter + body
//	RenderArticle      front matter + Markdown (goldmark) → Article
//	Build              docs/ → out/: pages, posters, stylesheets, KaTeX, report
//	Check              no request leaves the site; every internal link resolves;
//	                   every page declares ContentSecurityPolicy and needs
//	                   nothing it blocks (inline script, handlers, styles)
//	FileServer         serves the output with the right MIME types and gzip,
//	                   and the policy as a header
//
// The policy allows no inline style, so KaTeX's style attributes become
// classes of katex/styles.css at build time (inlineStyles); raw HTML in an
// article is dropped, as goldmark does, with a warning naming file:line.
package site
