package site

import (
	"errors"
	"fmt"
	"html/template"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Reference is one paper of docs/references.yaml.
type Reference struct {
	// Key is what articles cite: [@key].
	Key string `yaml:"key"`
	// Authors in the paper's order, "First Last".
	Authors []string `yaml:"authors"`
	// Title of the paper as published.
	Title string `yaml:"title"`
	// Venue is the journal, conference or "arXiv preprint".
	Venue string `yaml:"venue"`
	// Year of publication (of the cited version).
	Year int `yaml:"year"`
	// ArXiv is the arXiv identifier without the "arXiv:" prefix.
	ArXiv string `yaml:"arxiv"`
	// DOI without the https://doi.org/ prefix.
	DOI string `yaml:"doi"`
	// URL where the paper can be read when it has neither arXiv id nor DOI.
	URL string `yaml:"url"`
	// Note is a short remark for readers (e.g. which version is cited).
	Note string `yaml:"note"`
	// Excluded, when set, says why no article covers this surveyed paper
	// (it is off-topic); the references page lists it apart with the reason.
	Excluded string `yaml:"excluded"`

	line int // in references.yaml, for error messages
}

// Link returns where to read the paper: its URL, else arXiv, else the DOI.
func (r Reference) Link() string {
	switch {
	case r.URL != "":
		return r.URL
	case r.ArXiv != "":
		return "https://arxiv.org/abs/" + r.ArXiv
	case r.DOI != "":
		return "https://doi.org/" + r.DOI
	}
	return ""
}

// ShortAuthors is "Patarasuk and Yuan" or "Huang et al.", for tooltips.
func (r Reference) ShortAuthors() string {
	last := surname
	switch len(r.Authors) {
	case 0:
		return ""
	case 1:
		return last(r.Authors[0])
	case 2:
		return last(r.Authors[0]) + " and " + last(r.Authors[1])
	}
	return last(r.Authors[0]) + " et al."
}

// particles join the word after them in a surname: "Del Balso".
var particles = map[string]bool{"da": true, "de": true, "del": true, "der": true, "di": true, "van": true, "von": true, "le": true}

// surname is the last word of a name with its particles, or the whole name
// when it is a group ("DeepSeek-AI").
func surname(name string) string {
	f := strings.Fields(name)
	if len(f) == 0 {
		return name
	}
	i := len(f) - 1
	for i > 1 && particles[strings.ToLower(f[i-1])] {
		i--
	}
	return strings.Join(f[i:], " ")
}

// Entry is the reference formatted for a reference list, as HTML.
func (r Reference) Entry() template.HTML {
	var b strings.Builder
	esc := template.HTMLEscapeString
	b.WriteString(esc(strings.Join(r.Authors, ", ")))
	b.WriteString(". “")
	if l := r.Link(); l != "" {
		fmt.Fprintf(&b, `<a href="%s">%s</a>`, esc(l), esc(r.Title))
	} else {
		b.WriteString(esc(r.Title))
	}
	b.WriteString(".” ")
	if r.Venue != "" {
		fmt.Fprintf(&b, "<em>%s</em>, ", esc(r.Venue))
	}
	fmt.Fprintf(&b, "%d.", r.Year)
	if r.ArXiv != "" {
		fmt.Fprintf(&b, " arXiv:%s.", esc(r.ArXiv))
	}
	if r.DOI != "" {
		fmt.Fprintf(&b, " doi:%s.", esc(r.DOI))
	}
	if r.Note != "" {
		fmt.Fprintf(&b, ` <span class="note">%s</span>`, esc(r.Note))
	}
	return template.HTML(b.String())
}

// Term is one entry of docs/glossary.yaml.
type Term struct {
	// Term is the word or phrase as it is defined, e.g. "all-reduce".
	Term string `yaml:"term"`
	// Also lists other spellings that link to the same entry ("allreduce").
	Also []string `yaml:"also"`
	// Definition is one or two plain sentences.
	Definition string `yaml:"definition"`
}

// ID is the term's anchor on glossary.html.
func (t Term) ID() string { return "term-" + slugify(t.Term) }

// Library is what articles may refer to besides each other: the papers they
// cite and the glossary their terms link to. The zero Library is empty.
type Library struct {
	Refs  map[string]Reference
	Terms []Term
	// Mechanisms says, for each surveyed paper, whether ParaPlay runs its
	// mechanism (the mechanisms map of coverage.yaml; nil without one).
	Mechanisms map[string]Mechanism
}

var (
	refKey  = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	arxivID = regexp.MustCompile(`^\d{4}\.\d{4,5}$`)
	// doiPattern is a DOI's "10.registrant/suffix" with no whitespace;
	// the suffix may hold any other printable character.
	doiPattern = regexp.MustCompile(`^10\.\d{4,9}/[!-~]+$`)
	nonSlug    = regexp.MustCompile(`[^a-z0-9]+`)
	yearRange  = [2]int{1950, 2100}
)

func slugify(s string) string {
	return strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

// LoadLibrary reads references.yaml, glossary.yaml and the mechanisms map
// of coverage.yaml from docsDir; any may be missing. Every problem is reported as "file:LINE: message".
func LoadLibrary(docsDir string) (Library, error) {
	lib := Library{Refs: map[string]Reference{}}
	var errs []error
	refsPath := docsDir + "/references.yaml"
	if data, err := os.ReadFile(refsPath); err == nil {
		refs, err := parseReferences(refsPath, data)
		errs = append(errs, err)
		for _, r := range refs {
			lib.Refs[r.Key] = r
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, err)
	}
	glossPath := docsDir + "/glossary.yaml"
	if data, err := os.ReadFile(glossPath); err == nil {
		terms, err := parseGlossary(glossPath, data)
		errs = append(errs, err)
		lib.Terms = terms
	} else if !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, err)
	}
	covPath := docsDir + "/coverage.yaml"
	if data, err := os.ReadFile(covPath); err == nil {
		ms, err := parseMechanisms(covPath, data)
		errs = append(errs, err)
		for _, key := range sortedKeys(ms) {
			if _, ok := lib.Refs[key]; !ok {
				errs = append(errs, fmt.Errorf("%s: mechanisms: %q is not a key of references.yaml", covPath, key))
			}
		}
		lib.Mechanisms = ms
	} else if !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, err)
	}
	return lib, errors.Join(errs...)
}

// decodeList reads data, the YAML list of what (for its messages) in the
// file name, decoding each item into a T. check sees each decoded item with
// its line and a report function that files a "name:LINE: message" error
// there, and says whether to keep the item. Every problem is reported, not
// only the first.
func decodeList[T any](name string, data []byte, what string, check func(item *T, line int, report func(format string, args ...any)) bool) ([]T, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	list := doc.Content[0]
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s:%d: want a list of %s", name, list.Line, what)
	}
	var items []T
	var errs []error
	allowed := yamlFields(reflect.TypeFor[T]())
	for _, n := range list.Content {
		// yaml.Node.Decode has no KnownFields: a misspelt key ("titel")
		// would vanish silently, so check the keys first.
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; !slices.Contains(allowed, k.Value) {
					errs = append(errs, fmt.Errorf("%s:%d: unknown field %q in %s (allowed: %s)", name, k.Line, k.Value, what, strings.Join(allowed, ", ")))
				}
			}
		}
		var item T
		if err := n.Decode(&item); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %v", name, n.Line, err))
			continue
		}
		report := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("%s:%d: %s", name, n.Line, fmt.Sprintf(format, args...)))
		}
		if check(&item, n.Line, report) {
			items = append(items, item)
		}
	}
	return items, errors.Join(errs...)
}

// yamlFields lists the YAML keys of struct type t, in field order.
func yamlFields(t reflect.Type) []string {
	var keys []string
	for f := range t.Fields() {
		if tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	return keys
}

// checkLink says what is wrong with a reference's url, or "": only
// http(s) with a host, or a relative path inside the site, may become a
// link. A javascript: or data: URL would run or show attacker content
// from the references page; whitespace and control characters are
// refused outright because browsers strip them before reading the scheme
// ("java\tscript:" is javascript:).
func checkLink(raw string) string {
	for _, c := range raw {
		if c <= ' ' || c == 0x7f {
			return "must not contain spaces or control characters"
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "is not a URL: " + err.Error()
	}
	switch {
	case u.Scheme == "http" || u.Scheme == "https":
		if u.Host == "" {
			return "has no host"
		}
	case u.Scheme != "":
		return fmt.Sprintf("scheme %q is not allowed: use http, https or a relative link", u.Scheme)
	case u.Host != "" || strings.HasPrefix(raw, "//"):
		return "is scheme-relative: write https://"
	}
	return ""
}

// parseReferences decodes and checks the list: only known fields, unique
// lower-case keys, authors, title, a plausible year, a well-formed arXiv id
// and DOI, and a url that is http(s) or relative (checkLink).
func parseReferences(name string, data []byte) ([]Reference, error) {
	seen := map[string]int{}
	return decodeList(name, data, "references", func(r *Reference, line int, report func(string, ...any)) bool {
		r.line = line
		bad := func(format string, args ...any) {
			report("reference %q: %s", r.Key, fmt.Sprintf(format, args...))
		}
		switch {
		case !refKey.MatchString(r.Key):
			bad("key must be lower-case letters, digits, - and _")
		case seen[r.Key] != 0:
			bad("key already used on line %d", seen[r.Key])
		}
		seen[r.Key] = line
		if len(r.Authors) == 0 || r.Title == "" {
			bad("authors and title are required")
		}
		if r.Year < yearRange[0] || r.Year > yearRange[1] {
			bad("year %d is not plausible", r.Year)
		}
		if r.ArXiv != "" && !arxivID.MatchString(r.ArXiv) {
			bad("arxiv %q: want an id like 1802.05799", r.ArXiv)
		}
		if r.URL != "" {
			if problem := checkLink(r.URL); problem != "" {
				bad("url %q %s", r.URL, problem)
			}
		}
		if r.DOI != "" && !doiPattern.MatchString(r.DOI) {
			bad("doi %q: want an id like 10.1016/j.jpdc.2008.09.002, without https://doi.org/", r.DOI)
		}
		if r.Link() == "" {
			bad("give an arxiv id, a doi or a url")
		}
		return true
	})
}

// parseGlossary decodes and checks the glossary: only known fields, every
// term defined, no word (term or alias, ignoring case) defined twice;
// sorted by term.
func parseGlossary(name string, data []byte) ([]Term, error) {
	seen := map[string]int{}
	terms, err := decodeList(name, data, "terms", func(t *Term, line int, report func(string, ...any)) bool {
		if t.Term == "" || t.Definition == "" {
			report("term and definition are required")
			return false
		}
		for _, w := range append([]string{t.Term}, t.Also...) {
			k := strings.ToLower(w)
			if l := seen[k]; l != 0 {
				report("%q is already defined on line %d", w, l)
			}
			seen[k] = line
		}
		return true
	})
	sort.SliceStable(terms, func(i, j int) bool { return strings.ToLower(terms[i].Term) < strings.ToLower(terms[j].Term) })
	return terms, err
}
