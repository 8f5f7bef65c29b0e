package site

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// coverage is docs/coverage.yaml: the survey's article plan (which surveyed
// paper each article must cite), kept in the repository so that the check
// below runs on a clean clone.
type coverage struct {
	// Surveyed maps each entry of the surveyed lists (S0-xx, S4-xx) to its
	// references.yaml key.
	Surveyed map[string]string `yaml:"surveyed"`
	// Articles are the planned articles, written or not.
	Articles []plannedArticle `yaml:"articles"`
	// OffTopic are surveyed keys no article covers; references.yaml says why.
	OffTopic []string `yaml:"off_topic"`
	// Mechanisms says whether ParaPlay runs each surveyed paper's mechanism
	// (LoadLibrary reads it for references.html; TestMechanisms checks it).
	Mechanisms map[string]Mechanism `yaml:"mechanisms"`
}

// plannedArticle is one article of the plan.
type plannedArticle struct {
	// File is the article's Markdown file in docs/ (planned name if unwritten).
	File string `yaml:"file"`
	// Title says what the article is about.
	Title string `yaml:"title"`
	// Issue asks for the article; IssueArticle is its number in that issue.
	Issue        int `yaml:"issue"`
	IssueArticle int `yaml:"issue_article"`
	// Plan are the papers.md plan articles (section 2) it covers.
	Plan []int `yaml:"plan"`
	// Status is "written" or "waiting for issue N".
	Status string `yaml:"status"`
	// Cite are the papers the article itself must cite once written.
	Cite []string `yaml:"cite"`
	// Elsewhere are papers the plan lists here that another article covers:
	// some written article must cite each.
	Elsewhere []string `yaml:"elsewhere"`
	// Note says what the article cannot show yet, e.g. a missing feature.
	Note string `yaml:"note"`
}

var (
	statusPattern = regexp.MustCompile(`^(written|waiting for issue [1-9][0-9]*)$`)
	mdFilePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*\.md$`)
	surveyID      = regexp.MustCompile(`^S[04]-(H|[0-9]{2})$`)
)

// written reports whether the article is meant to be on this branch.
func (a plannedArticle) written() bool { return a.Status == "written" }

// parseCoverage decodes coverage.yaml strictly (unknown fields are errors)
// and checks its shape; it does not look at references or articles.
func parseCoverage(data []byte) (coverage, error) {
	var c coverage
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("coverage.yaml: %w", err)
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("coverage.yaml: "+format, args...)) }
	if len(c.Surveyed) == 0 || len(c.Articles) == 0 {
		bad("want surveyed and articles")
	}
	for id, key := range c.Surveyed {
		if !surveyID.MatchString(id) || !refKey.MatchString(key) {
			bad("surveyed %q: %q: want an id like S0-07 and a reference key", id, key)
		}
	}
	seen := map[string]bool{}
	for i, a := range c.Articles {
		switch {
		case !mdFilePattern.MatchString(a.File):
			bad("articles[%d]: file %q: want a name like pipeline.md", i, a.File)
		case seen[a.File]:
			bad("articles[%d]: %s is listed twice", i, a.File)
		case a.Title == "" || a.Issue <= 0:
			bad("%s: title and issue are required", a.File)
		case !statusPattern.MatchString(a.Status):
			bad("%s: status %q: want \"written\" or \"waiting for issue N\"", a.File, a.Status)
		}
		seen[a.File] = true
		for _, p := range a.Plan {
			if p < 1 || p > 19 {
				bad("%s: plan article %d: papers.md plans articles 1 to 19", a.File, p)
			}
		}
		for _, k := range slices.Concat(a.Cite, a.Elsewhere) {
			if !refKey.MatchString(k) {
				bad("%s: %q is not a reference key", a.File, k)
			}
		}
	}
	return c, errors.Join(errs...)
}

// TestCoverage checks the survey's article plan against the articles: every
// paper assigned to a written article is cited by it (or, for the plan's
// cross-links, by some article), every surveyed paper is assigned or marked
// off-topic with a reason on the references page. Papers of articles still
// waiting for their issue are reported in the log, not failed.
func TestCoverage(t *testing.T) {
	c := loadCoverage(t)
	c.checkAssignments(t)
	var table strings.Builder
	for _, a := range c.cov.Articles {
		c.checkArticle(t, a, &table)
	}
	for file := range c.articles {
		if !c.planned(file) {
			t.Logf("docs/%s is not in coverage.yaml; add it with the surveyed papers it covers", file)
		}
	}
	t.Logf("coverage (✓ cited by the article; parentheses: cited by some article):%s", table.String())
}

// coverageCheck is what TestCoverage compares: the plan, the library and
// the rendered articles with the references each cites.
type coverageCheck struct {
	cov      coverage
	lib      Library
	articles map[string]*Article // by file name
	citedBy  map[string][]string // key → files of the articles citing it
}

// loadCoverage reads docs/coverage.yaml and the library, and renders the
// articles to see what each cites.
func loadCoverage(t *testing.T) coverageCheck {
	t.Helper()
	data, err := os.ReadFile("../docs/coverage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cov, err := parseCoverage(data)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := LoadLibrary("../docs")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := renderAll("../docs", lib)
	if err != nil {
		t.Fatal(err)
	}
	c := coverageCheck{cov: cov, lib: lib, articles: map[string]*Article{}, citedBy: map[string][]string{}}
	for _, a := range docs {
		if a.Kind != KindArticle {
			continue
		}
		file := a.Slug + ".md"
		c.articles[file] = a
		for _, r := range slices.Concat(a.Cited, a.IdeasFrom) {
			if !slices.Contains(c.citedBy[r.Key], file) {
				c.citedBy[r.Key] = append(c.citedBy[r.Key], file)
			}
		}
	}
	return c
}

// name is a reference key with its authors, year and title, for messages.
func (c coverageCheck) name(key string) string {
	if r, ok := c.lib.Refs[key]; ok {
		return fmt.Sprintf("%s (%s %d, “%s”)", key, r.ShortAuthors(), r.Year, r.Title)
	}
	return key
}

// planned reports whether coverage.yaml lists the article file.
func (c coverageCheck) planned(file string) bool {
	return slices.ContainsFunc(c.cov.Articles, func(a plannedArticle) bool { return a.File == file })
}

// checkAssignments checks the plan against the library: every surveyed
// and assigned paper is a reference, assigned papers are surveyed and not
// excluded, and every surveyed paper is assigned or off-topic (with an
// excluded reason).
func (c coverageCheck) checkAssignments(t *testing.T) {
	surveyed := map[string]bool{}
	for id, key := range c.cov.Surveyed {
		surveyed[key] = true
		if _, ok := c.lib.Refs[key]; !ok {
			t.Errorf("coverage.yaml: surveyed %s is %q, which references.yaml lacks", id, key)
		}
	}
	assigned := map[string]bool{}
	for _, a := range c.cov.Articles {
		for _, key := range slices.Concat(a.Cite, a.Elsewhere) {
			assigned[key] = true
			r, ok := c.lib.Refs[key]
			switch {
			case !ok:
				t.Errorf("coverage.yaml: %s is assigned %q, which references.yaml lacks", a.File, key)
			case r.Excluded != "":
				t.Errorf("coverage.yaml: %s is assigned %s, which references.yaml marks excluded", a.File, key)
			case !surveyed[key]:
				t.Errorf("coverage.yaml: %s is assigned %s, which is not a surveyed paper", a.File, key)
			}
		}
	}
	for _, key := range c.cov.OffTopic {
		if c.lib.Refs[key].Excluded == "" {
			t.Errorf("off-topic paper %s: give it an excluded reason in references.yaml, for the references page", c.name(key))
		}
		if assigned[key] {
			t.Errorf("off-topic paper %s is also assigned to an article", key)
		}
	}
	for id, key := range c.cov.Surveyed {
		if !assigned[key] && !slices.Contains(c.cov.OffTopic, key) {
			t.Errorf("surveyed paper %s %s is assigned to no article and not listed as off-topic", id, c.name(key))
		}
	}
}

// checkArticle checks one planned article against the articles: written
// exactly when marked so, citing its papers; and adds its row to table.
func (c coverageCheck) checkArticle(t *testing.T, a plannedArticle, table *strings.Builder) {
	fmt.Fprintf(table, "\n%-22s %-22s", a.File, a.Status)
	_, exists := c.articles[a.File]
	switch {
	case a.written() && !exists:
		t.Errorf("%s (%s) is marked written in coverage.yaml, but docs/%s is not an article", a.File, a.Title, a.File)
	case !a.written() && exists:
		t.Logf("%s exists but coverage.yaml says %q: mark it written once it is final", a.File, a.Status)
	}
	for _, key := range a.Cite {
		ok := slices.Contains(c.citedBy[key], a.File)
		fmt.Fprintf(table, " %s%s", key, mark(ok))
		switch {
		case ok:
		case a.written():
			t.Errorf("%s (%s): papers.md assigns the paper %s to it, but the article does not cite it", a.File, a.Title, c.name(key))
		case len(c.citedBy[key]) == 0:
			t.Logf("not yet cited anywhere: %s, assigned to %s (%s)", c.name(key), a.File, a.Status)
		}
	}
	for _, key := range a.Elsewhere {
		ok := len(c.citedBy[key]) > 0
		fmt.Fprintf(table, " (%s%s)", key, mark(ok))
		if !ok && a.written() {
			t.Errorf("%s (%s): papers.md also assigns the paper %s to it; no article cites it", a.File, a.Title, c.name(key))
		}
	}
}

func mark(ok bool) string {
	if ok {
		return " ✓"
	}
	return " ✗"
}

func TestParseCoverageErrors(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"unknown field", "surveyed: {S0-01: a}\narticles: [{file: a.md, title: A, issue: 7, status: written, cites: [x]}]", "field cites not found"},
		{"bad status", "surveyed: {S0-01: a}\narticles: [{file: a.md, title: A, issue: 7, status: soon}]", `status "soon"`},
		{"bad file", "surveyed: {S0-01: a}\narticles: [{file: A.txt, title: A, issue: 7, status: written}]", `file "A.txt"`},
		{"twice", "surveyed: {S0-01: a}\narticles: [{file: a.md, title: A, issue: 7, status: written}, {file: a.md, title: A, issue: 7, status: written}]", "listed twice"},
		{"plan", "surveyed: {S0-01: a}\narticles: [{file: a.md, title: A, issue: 7, status: written, plan: [20]}]", "plan article 20"},
		{"survey id", "surveyed: {S9-01: a}\narticles: [{file: a.md, title: A, issue: 7, status: written}]", `surveyed "S9-01"`},
		{"empty", "off_topic: [x]", "want surveyed and articles"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseCoverage([]byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func FuzzParseCoverage(f *testing.F) {
	if data, err := os.ReadFile("../docs/coverage.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("surveyed: {S0-01: a}\narticles: [{file: a.md, title: A, issue: 7, status: written}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = parseCoverage(data) // must not panic
	})
}

const excludedSite = `
-- a.md --
---
title: A
---
Text [@kept].
-- references.yaml --
- {key: kept, authors: [A B], title: Kept, year: 2020, arxiv: "2001.00001"}
- {key: offtopic, authors: [C D], title: Off, year: 2018, arxiv: "1807.01624", excluded: It is about CPUs.}
`

func TestExcludedReferences(t *testing.T) {
	out, _, err := buildSite(t, excludedSite)
	if err != nil {
		t.Fatal(err)
	}
	assertFile(t, out, "references.html", `id="kept"`, `Cited in`, `id="not-covered"`, `id="offtopic"`, `Not covered: It is about CPUs.`)

	_, _, err = buildSite(t, strings.Replace(excludedSite, "[@kept]", "[@offtopic]", 1))
	if err == nil || !strings.Contains(err.Error(), `"offtopic" is marked excluded`) {
		t.Errorf("citing an excluded paper: got %v, want an error naming it", err)
	}
}
