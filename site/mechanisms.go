package site

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"regexp"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Mechanism says whether ParaPlay runs a surveyed paper's own mechanism:
// one entry of the mechanisms map of docs/coverage.yaml, shown beside the
// paper on references.html and checked against the articles and the
// scenario's field table by site/coverage_test.go.
type Mechanism struct {
	// Status is simulated (the paper's mechanism is a scenario key and a
	// demo runs it), partial, prose (described only) or off-topic.
	Status string `yaml:"status"`
	// Keys are the scenario keys that run it, "key" or "key=value".
	Keys []string `yaml:"keys"`
	// Demo is "article.md#heading-id": the section whose sim block runs it.
	Demo string `yaml:"demo"`
	// Missing says what of the mechanism is not modelled.
	Missing string `yaml:"missing"`
}

// Mechanism statuses, in the order references.html counts them.
var mechanismStatuses = []string{"simulated", "partial", "prose", "off-topic"}

var (
	demoRef    = regexp.MustCompile(`^([a-z0-9][a-z0-9-]*)\.md#([a-z0-9][a-z0-9-]*)$`)
	mechKeyRef = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*(=[^=\s]+)?$`)
)

// DemoParts splits Demo into the article's slug and the heading's id.
func (m Mechanism) DemoParts() (slug, id string, ok bool) {
	p := demoRef.FindStringSubmatch(m.Demo)
	if p == nil {
		return "", "", false
	}
	return p[1], p[2], true
}

// SplitKey splits a mechanism key "key=value" into the scenario key and the
// value a sim block must give it ("" when any value will do).
func SplitKey(k string) (key, value string) {
	key, value, _ = strings.Cut(k, "=")
	return key, value
}

// parseMechanisms reads the mechanisms map of coverage.yaml (the other
// top-level keys are the coverage test's) strictly: an unknown field, a
// status outside mechanismStatuses, a malformed key or demo, a simulated
// entry without keys and demo, or a partial or prose entry that does not
// say what is missing is an error naming the paper.
func parseMechanisms(name string, data []byte) (map[string]Mechanism, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	node := mappingValue(&doc, "mechanisms")
	if node == nil {
		return nil, nil
	}
	raw, err := yaml.Marshal(node)
	if err != nil {
		return nil, fmt.Errorf("%s: mechanisms: %w", name, err)
	}
	var out map[string]Mechanism
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("%s:%d: mechanisms: %w", name, node.Line, err)
	}
	var errs []error
	for _, key := range sortedKeys(out) {
		if err := out[key].check(); err != nil {
			errs = append(errs, fmt.Errorf("%s: mechanisms: %s: %w", name, key, err))
		}
	}
	return out, errors.Join(errs...)
}

// mappingValue is the value of key in the top-level mapping of doc, or nil.
func mappingValue(doc *yaml.Node, key string) *yaml.Node {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// check is the shape of one entry; the articles and the field table are
// the coverage test's.
func (m Mechanism) check() error {
	if !slices.Contains(mechanismStatuses, m.Status) {
		return fmt.Errorf("status %q: want one of %s", m.Status, strings.Join(mechanismStatuses, ", "))
	}
	for _, k := range m.Keys {
		if !mechKeyRef.MatchString(k) {
			return fmt.Errorf("key %q: want a scenario key like data.assign or data.assign=balanced", k)
		}
	}
	if m.Demo != "" && !demoRef.MatchString(m.Demo) {
		return fmt.Errorf("demo %q: want article.md#heading-id", m.Demo)
	}
	switch m.Status {
	case "simulated":
		if len(m.Keys) == 0 || m.Demo == "" {
			return errors.New("simulated needs the keys that run it and the demo that shows it")
		}
	case "off-topic":
		if len(m.Keys) > 0 || m.Demo != "" {
			return errors.New("off-topic takes no keys and no demo")
		}
	case "prose":
		if len(m.Keys) > 0 || m.Demo != "" {
			return errors.New("prose takes no keys and no demo (nothing runs it); call it partial if something does")
		}
	}
	if m.Status != "simulated" && m.Status != "off-topic" && strings.TrimSpace(m.Missing) == "" {
		return fmt.Errorf("%s: say what is missing", m.Status)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mechanismView is a paper's mechanism as references.html shows it.
type mechanismView struct {
	Status string
	// Label is the status in words.
	Label string
	// DemoHref and DemoTitle link the section whose demo runs it.
	DemoHref, DemoTitle string
	Keys                []string
	Missing             string
}

// mechanismLabels are the statuses in words.
var mechanismLabels = map[string]string{
	"simulated": "Simulated",
	"partial":   "Partly simulated",
	"prose":     "Described, not simulated",
	"off-topic": "Off-topic",
}

// viewMechanism is the view of m, linking its demo to the article among
// articles (nil when the paper has no entry).
func viewMechanism(m Mechanism, ok bool, articles []*Article) *mechanismView {
	if !ok {
		return nil
	}
	v := &mechanismView{Status: m.Status, Label: mechanismLabels[m.Status], Missing: m.Missing}
	for _, k := range m.Keys {
		key, value := SplitKey(k)
		if value != "" {
			k = key + ": " + value
		}
		v.Keys = append(v.Keys, k)
	}
	if slug, id, ok := m.DemoParts(); ok {
		v.DemoHref = slug + ".html#" + id
		v.DemoTitle = slug
		for _, a := range articles {
			if a.Slug == slug {
				v.DemoTitle = a.Title
			}
		}
	}
	return v
}

// mechanismCounts is how many surveyed papers have each status, for the
// sentence atop references.html.
type mechanismCounts struct {
	Simulated, Partial, Prose, OffTopic int
}

func countMechanisms(ms map[string]Mechanism) *mechanismCounts {
	if len(ms) == 0 {
		return nil
	}
	var c mechanismCounts
	for _, m := range ms {
		switch m.Status {
		case "simulated":
			c.Simulated++
		case "partial":
			c.Partial++
		case "prose":
			c.Prose++
		case "off-topic":
			c.OffTopic++
		}
	}
	return &c
}

// Total is the number of surveyed papers counted.
func (c mechanismCounts) Total() int { return c.Simulated + c.Partial + c.Prose + c.OffTopic }

// KeysHTML writes the keys as code, for the template.
func (v mechanismView) KeysHTML() template.HTML {
	var b strings.Builder
	for i, k := range v.Keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "<code>%s</code>", template.HTMLEscapeString(k))
	}
	return template.HTML(b.String())
}
