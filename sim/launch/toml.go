package launch

import (
	"fmt"
	"strconv"
	"strings"
)

// tomlDoc is the subset of TOML a torchtitan job file uses: [section]
// headers and key = value lines whose value is a string, a number, a
// boolean or a one-line array (kept as text), with # comments. Keys are
// "section.key".
type tomlDoc struct {
	values map[string]string
	order  []string
}

// parseTOML reads text; the error names the line.
func parseTOML(text string) (tomlDoc, error) {
	d := tomlDoc{values: map[string]string{}}
	if len(text) > MaxLine {
		return d, fmt.Errorf("the job file is %d bytes; at most %d allowed", len(text), MaxLine)
	}
	section := ""
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(stripComment(line))
		switch {
		case line == "":
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.TrimSpace(strings.Trim(line, "[]"))
			if section == "" || strings.ContainsAny(section, " \t\"'=") {
				return d, fmt.Errorf("line %d: %q is not a section header ParaPlay reads", n+1, line)
			}
		default:
			k, v, ok := strings.Cut(line, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !ok || k == "" || v == "" || strings.ContainsAny(k, " \t\"'[]") {
				return d, fmt.Errorf("line %d: %q is not a key = value line", n+1, line)
			}
			val, err := tomlValue(v)
			if err != nil {
				return d, fmt.Errorf("line %d: %s: %v", n+1, k, err)
			}
			key := section + "." + k
			if _, dup := d.values[key]; dup {
				return d, fmt.Errorf("line %d: %s is set twice", n+1, key)
			}
			d.values[key] = val
			d.order = append(d.order, key)
		}
	}
	return d, nil
}

// stripComment drops a # comment outside a string.
func stripComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return line[:i]
		}
	}
	return line
}

// tomlValue is a value's text: a string unquoted, anything else as written.
func tomlValue(v string) (string, error) {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		s := v[1 : len(v)-1]
		if strings.ContainsAny(s, "\"\\") {
			return "", fmt.Errorf("%s: escapes in strings are not read", v)
		}
		return s, nil
	}
	if v == "true" || v == "false" || strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		return v, nil
	}
	if _, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64); err != nil {
		return "", fmt.Errorf("%s is not a string, number, boolean or array", v)
	}
	return strings.ReplaceAll(v, "_", ""), nil
}
