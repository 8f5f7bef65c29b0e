//go:build !js

// The browser app never reads YAML (its scenarios arrive as URL queries), so
// the wasm build leaves this file out: file_js.go stands in for it. Merely
// importing the YAML library keeps its whole codec alive in wasm (its
// package init makes yaml.Node reachable through reflection, and Ebitengine's
// text/template use stops the linker pruning reflected methods), which cost
// about 0.2 MB of the gzipped download.

package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
	doc, err := oneDocument(data)
	if err != nil {
		return s, err
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
		if f != nil && n.Kind == yaml.SequenceNode {
			text, err := listText(key, n)
			if err != nil {
				errs = append(errs, err)
				return
			}
			n = &yaml.Node{Kind: yaml.ScalarNode, Value: text, Line: n.Line}
		}
		switch {
		case f == nil:
			errs = append(errs, fmt.Errorf("line %d: %w", n.Line, &FieldError{Field: key, Msg: "unknown key; known: " + knownKeys()}))
		case n.Kind != yaml.ScalarNode:
			errs = append(errs, fmt.Errorf("line %d: %w", n.Line, &FieldError{Field: key, Msg: "want a single value (" + f.Help + ")"}))
		case seen[key]:
			errs = append(errs, fmt.Errorf("line %d: %w", n.Line, &FieldError{Field: key, Msg: "given more than once"}))
		default:
			seen[key] = true
			if err := f.Set(&s, n.Value); err != nil {
				errs = append(errs, fmt.Errorf("line %d: %w", n.Line, &FieldError{Field: key, Msg: err.Error()}))
			}
		}
	})
	inferStrategy(&s, seen)
	errs = append(errs, applyMesh(&s, seen)...)
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
	for _, f := range allFields() {
		if strings.HasPrefix(f.Key, key+".") {
			return true
		}
	}
	return false
}

// listText turns a YAML list into the text form of a list field, so that
// the file and the URL go through one parser: faults (a list of mappings)
// become "k=v,k=v;k=v", cluster.node_gpus (a list of presets) "a,b".
func listText(key string, n *yaml.Node) (string, error) {
	fail := func(line int, msg string) error {
		return fmt.Errorf("line %d: %w", line, &FieldError{Field: key, Msg: msg})
	}
	var items []string
	for i, item := range n.Content {
		switch key {
		case "faults":
			if item.Kind != yaml.MappingNode {
				return "", fail(item.Line, fmt.Sprintf("faults[%d] is not a mapping; want e.g. {at: 2.5s, gpu: 13, kind: fail_stop}", i))
			}
			var kv []string
			for j := 0; j+1 < len(item.Content); j += 2 {
				k, v := item.Content[j], item.Content[j+1]
				if v.Kind != yaml.ScalarNode || strings.ContainsAny(k.Value+v.Value, ",;=") {
					return "", fail(v.Line, fmt.Sprintf("faults[%d].%s: want a single value", i, k.Value))
				}
				kv = append(kv, k.Value+"="+v.Value)
			}
			items = append(items, strings.Join(kv, ","))
		case "cluster.node_gpus", "parallel.layers_per_stage", "model.moe.routing.histogram":
			if item.Kind != yaml.ScalarNode || strings.Contains(item.Value, ",") {
				return "", fail(item.Line, fmt.Sprintf("%s[%d]: want one value", key[strings.LastIndex(key, ".")+1:], i))
			}
			items = append(items, item.Value)
		default:
			return "", fail(n.Line, "want a single value, not a list")
		}
	}
	sep := ","
	if key == "faults" {
		sep = ";"
	}
	return strings.Join(items, sep), nil
}

// oneDocument decodes the file's YAML document and refuses a second one: a
// file of several (separated by "---") would otherwise run the first and
// silently drop the rest.
func oneDocument(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &doc, nil // an empty file
		}
		return nil, fmt.Errorf("not valid YAML or JSON: %w", err)
	}
	for {
		var next yaml.Node
		err := dec.Decode(&next)
		switch {
		case errors.Is(err, io.EOF):
			return &doc, nil
		case err != nil:
			return nil, fmt.Errorf("not valid YAML or JSON after the first document: %w", err)
		case emptyDocument(&next):
			continue // a trailing "---" drops nothing
		}
		return nil, fmt.Errorf("line %d: a second YAML document (after ---); a scenario file holds one scenario: put each in its own file",
			next.Content[0].Line)
	}
}

// emptyDocument reports whether a document holds nothing (or only null).
func emptyDocument(n *yaml.Node) bool {
	if len(n.Content) == 0 {
		return true
	}
	c := n.Content[0]
	return len(n.Content) == 1 && c.Kind == yaml.ScalarNode && c.Tag == "!!null" && (c.Value == "" || c.Value == "~" || c.Value == "null")
}
