package site

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	yaml "go.yaml.in/yaml/v3"

	"paraplay/sim/scenario"
)

// TestMechanisms checks coverage.yaml's mechanisms map against the
// articles and the scenario's field table: every surveyed paper has one
// entry, off-topic exactly for the off_topic list; every key is a row of
// the field table; a demo names a heading of an article, and a sim block in
// that heading's section sets every key (to its value, when the entry gives
// one); and a simulated paper's demo article cites it. It logs the count of
// each status and the simulated papers with their keys and demos.
func TestMechanisms(t *testing.T) {
	c := loadCoverage(t)
	ms := c.cov.Mechanisms
	surveyed := map[string]bool{}
	for _, key := range c.cov.Surveyed {
		surveyed[key] = true
		if _, ok := ms[key]; !ok {
			t.Errorf("mechanisms: surveyed paper %s has no entry", c.name(key))
		}
	}
	fields := map[string]bool{}
	for _, p := range scenario.Params() {
		fields[p.Key] = true
	}
	sections := map[string]map[string][]simBlock{} // article file → heading id → sim blocks
	counts := map[string]int{}
	var live []string
	for _, key := range sortedKeys(ms) {
		m := ms[key]
		counts[m.Status]++
		if !surveyed[key] {
			t.Errorf("mechanisms: %s is not a surveyed paper", c.name(key))
		}
		if off := slices.Contains(c.cov.OffTopic, key); off != (m.Status == "off-topic") {
			t.Errorf("mechanisms: %s: status %s, but off_topic lists it: %v", key, m.Status, off)
		}
		for _, k := range m.Keys {
			if name, _ := SplitKey(k); !fields[name] {
				t.Errorf("mechanisms: %s: key %q is not in the scenario's field table (README)", key, name)
			}
		}
		if m.Demo != "" {
			c.checkDemo(t, key, m, sections)
		}
		if m.Status == "simulated" {
			live = append(live, fmt.Sprintf("%s (%s, %s)", key, strings.Join(m.Keys, ", "), m.Demo))
		}
	}
	t.Logf("mechanisms: %d simulated, %d partial, %d prose, %d off-topic", counts["simulated"], counts["partial"], counts["prose"], counts["off-topic"])
	t.Logf("simulated: %s", strings.Join(live, "; "))
}

// checkDemo checks that m's demo names a heading of an article whose
// section has a sim block setting each of m's keys, and, for a simulated
// paper, that the article cites it. sections caches each article's.
func (c coverageCheck) checkDemo(t *testing.T, key string, m Mechanism, sections map[string]map[string][]simBlock) {
	t.Helper()
	slug, id, ok := m.DemoParts()
	file := slug + ".md"
	a := c.articles[file]
	if !ok || a == nil {
		t.Errorf("mechanisms: %s: demo %q: no article docs/%s", key, m.Demo, file)
		return
	}
	if sections[file] == nil {
		var err error
		if sections[file], err = articleSections("../docs/"+file, c.lib); err != nil {
			t.Fatal(err)
		}
	}
	blocks, ok := sections[file][id]
	switch {
	case !ok:
		t.Errorf("mechanisms: %s: demo %q: %s has no heading #%s", key, m.Demo, file, id)
		return
	case len(blocks) == 0:
		t.Errorf("mechanisms: %s: demo %q: the section has no sim block", key, m.Demo)
		return
	}
	for _, k := range m.Keys {
		name, value := SplitKey(k)
		if !slices.ContainsFunc(blocks, func(b simBlock) bool { return b.sets(name, value) }) {
			t.Errorf("mechanisms: %s: demo %q: no sim block in the section sets %s", key, m.Demo, k)
		}
	}
	if m.Status == "simulated" && !slices.Contains(c.citedBy[key], file) {
		t.Errorf("mechanisms: %s: demo %q: the article does not cite the paper", key, m.Demo)
	}
}

// simBlock is a sim block's scenario keys, dotted, with their values as
// text ("[list]" for a list).
type simBlock map[string]string

// sets reports whether the block sets key, to value unless value is "".
func (b simBlock) sets(key, value string) bool {
	v, ok := b[key]
	return ok && (value == "" || v == value)
}

// articleSections parses the Markdown article at path and returns, for
// every heading's id, the sim blocks of its section: from the heading to
// the next heading of the same or a higher level.
func articleSections(path string, lib Library) (map[string][]simBlock, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	_, body, _, err := ParseFrontMatter(src)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	doc := &docState{file: path, source: body, lib: lib}
	root := newMarkdown(doc).Parser().Parse(text.NewReader(body))
	type open struct {
		id    string
		level int
	}
	var stack []open
	out := map[string][]simBlock{}
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			for len(stack) > 0 && stack[len(stack)-1].level >= n.Level {
				stack = stack[:len(stack)-1]
			}
			id, _ := n.AttributeString("id")
			idBytes, _ := id.([]byte)
			stack = append(stack, open{string(idBytes), n.Level})
			out[string(idBytes)] = nil
		case *ast.FencedCodeBlock:
			if string(n.Language(body)) != "sim" {
				continue
			}
			var lines strings.Builder
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				lines.Write(seg.Value(body))
			}
			b, err := parseSimBlock(lines.String())
			if err != nil {
				return nil, fmt.Errorf("%s: sim block: %w", path, err)
			}
			for _, o := range stack {
				out[o.id] = append(out[o.id], b)
			}
		}
	}
	return out, nil
}

// parseSimBlock flattens a sim block's YAML into dotted keys, leaving out
// its view options.
func parseSimBlock(src string) (simBlock, error) {
	var m map[string]any
	if err := yaml.Unmarshal([]byte(src), &m); err != nil {
		return nil, err
	}
	delete(m, "view")
	out := simBlock{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(strings.TrimPrefix(prefix+"."+k, "."), v[k])
			}
		case []any:
			out[prefix] = "[list]"
		default:
			out[prefix] = fmt.Sprint(v)
		}
	}
	walk("", m)
	return out, nil
}

func TestParseSimBlock(t *testing.T) {
	got, err := parseSimBlock("name: x\nparallel: {pp: 4, schedule: zb-h1}\nfaults:\n  - {at: 0s}\nview: {poster: 1ms}\n")
	if err != nil {
		t.Fatal(err)
	}
	want := simBlock{"name": "x", "parallel.pp": "4", "parallel.schedule": "zb-h1", "faults": "[list]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestParseMechanismsErrors(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"status", "mechanisms: {a: {status: done}}", `status "done"`},
		{"unknown field", "mechanisms: {a: {status: prose, missing: x, demos: y}}", "field demos not found"},
		{"simulated needs keys", "mechanisms: {a: {status: simulated, demo: a.md#b}}", "needs the keys"},
		{"bad demo", "mechanisms: {a: {status: partial, demo: a.html, missing: x}}", `demo "a.html"`},
		{"bad key", "mechanisms: {a: {status: partial, keys: [Data Assign], missing: x}}", `key "Data Assign"`},
		{"prose with demo", "mechanisms: {a: {status: prose, demo: a.md#b, missing: x}}", "prose takes no keys"},
		{"missing", "mechanisms: {a: {status: partial, keys: [data.assign]}}", "say what is missing"},
		{"off-topic with keys", "mechanisms: {a: {status: off-topic, keys: [x]}}", "off-topic takes no keys"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseMechanisms("coverage.yaml", []byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
	ms, err := parseMechanisms("coverage.yaml", []byte("surveyed: {S0-01: a}\nmechanisms: {a: {status: simulated, keys: [data.assign=balanced], demo: long-sequences.md#x}}"))
	if err != nil || ms["a"].Status != "simulated" {
		t.Errorf("a valid map: got %v, %v", ms, err)
	}
}

func FuzzParseMechanisms(f *testing.F) {
	if data, err := os.ReadFile("../docs/coverage.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("mechanisms: {a: {status: simulated, keys: [data.assign=balanced], demo: a.md#b}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, err := parseMechanisms("coverage.yaml", data)
		if err != nil {
			return
		}
		for _, m := range ms {
			viewMechanism(m, true, nil) // must not panic
		}
	})
}

const mechanismSite = `
-- a.md --
---
title: A
---
## Demo here

Text [@kept].
-- references.yaml --
- {key: kept, authors: [A B], title: Kept, year: 2020, arxiv: "2001.00001"}
- {key: other, authors: [C D], title: Other, year: 2019, arxiv: "1901.00001"}
-- coverage.yaml --
mechanisms:
  kept: {status: simulated, keys: [data.assign=balanced], demo: a.md#demo-here, missing: Accuracy.}
  other: {status: prose, missing: Everything.}
`

func TestReferencesShowMechanisms(t *testing.T) {
	out, _, err := buildSite(t, mechanismSite)
	if err != nil {
		t.Fatal(err)
	}
	assertFile(t, out, "references.html",
		`ParaPlay simulates the mechanism of 1 in a live demo, part of it for 0, and describes 1 in prose only`,
		`class="mechanism mechanism-simulated"><strong>Simulated</strong>: <a href="a.html#demo-here">demo in A</a>, <code>data.assign: balanced</code>. Not modelled: Accuracy.`,
		`<strong>Described, not simulated</strong>. Not modelled: Everything.`)

	_, _, err = buildSite(t, strings.Replace(mechanismSite, "  other:", "  nobody:", 1))
	if err == nil || !strings.Contains(err.Error(), `"nobody" is not a key of references.yaml`) {
		t.Errorf("a mechanism for an unknown paper: got %v, want an error naming it", err)
	}
}
