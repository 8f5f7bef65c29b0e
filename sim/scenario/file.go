package scenario

import (
	"errors"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// MaxFileSize bounds a scenario file; anything larger is surely not one.
const MaxFileSize = 1 << 20

// Parse reads a scenario from YAML (or JSON, which is YAML too), starting
// from Default so that a file only says what differs. Unknown keys and bad
// values are errors naming the key and its line; the result is validated.
func Parse(data []byte) (Scenario, error) {
	s := Default()
	if len(data) > MaxFileSize {
		return s, fmt.Errorf("scenario is %d bytes; at most %d allowed", len(data), MaxFileSize)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return s, fmt.Errorf("not valid YAML or JSON: %w", err)
	}
	if len(doc.Content) == 0 {
		return s, s.Validate() // an empty file is the default scenario
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return s, fmt.Errorf("line %d: the scenario must be a mapping of keys to values", root.Line)
	}
	var errs []error
	seen := map[string]bool{}
	walk(root, "", func(key string, n *yaml.Node) {
		f := fieldByKey(key)
		switch {
		case f == nil:
			errs = append(errs, fmt.Errorf("line %d: %w", n.Line, &FieldError{Field: key, Msg: "unknown key; known: " + knownKeys()}))
		case n.Kind != yaml.ScalarNode:
			errs = append(errs, fmt.Errorf("line %d: %w", n.Line, &FieldError{Field: key, Msg: "want a single value (" + f.help + ")"}))
		case seen[key]:
			errs = append(errs, fmt.Errorf("line %d: %w", n.Line, &FieldError{Field: key, Msg: "given more than once"}))
		default:
			seen[key] = true
			if err := f.set(&s, n.Value); err != nil {
				errs = append(errs, fmt.Errorf("line %d: %w", n.Line, &FieldError{Field: key, Msg: err.Error()}))
			}
		}
	})
	inferStrategy(&s, seen)
	// Fields that failed to parse kept their default, so Validate only adds
	// problems with the fields that did parse.
	return s, errors.Join(append(errs, flatten(s.Validate())...)...)
}

// walk calls visit for every leaf of a mapping with its dotted key. Nested
// mappings whose dotted prefix is not a known section are leaves too, so
// visit can report them as unknown keys.
func walk(m *yaml.Node, prefix string, visit func(key string, n *yaml.Node)) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		key := k.Value
		if prefix != "" {
			key = prefix + "." + k.Value
		}
		if v.Kind == yaml.MappingNode && isSection(key) {
			walk(v, key, visit)
			continue
		}
		visit(key, v)
	}
}

func isSection(key string) bool {
	for _, f := range fields {
		if strings.HasPrefix(f.key, key+".") {
			return true
		}
	}
	return false
}
