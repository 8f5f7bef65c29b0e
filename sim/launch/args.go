package launch

import (
	"fmt"
	"strings"
)

// MaxLine bounds an imported launch line or job file, in bytes.
const MaxLine = 1 << 20

// words splits a shell command line into words: blanks separate words,
// single and double quotes group them, a backslash escapes the next
// character (a backslash-newline joins lines), and a # at the start of a
// word comments out the rest of its line. ${VAR} and $VAR are left as
// they are (the flag that takes them then names them as a bad value).
func words(line string) ([]string, error) {
	if len(line) > MaxLine {
		return nil, fmt.Errorf("the launch line is %d bytes; at most %d allowed", len(line), MaxLine)
	}
	var out []string
	var cur strings.Builder
	inWord := false
	var quote byte
	flush := func() {
		if inWord {
			out = append(out, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\\' && i+1 < len(line):
			i++
			if line[i] != '\n' && line[i] != '\r' {
				cur.WriteByte(line[i])
				inWord = true
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '#' && !inWord:
			for i < len(line) && line[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("the launch line has an unclosed %c quote", quote)
	}
	flush()
	return out, nil
}

// flagSet is a command line's flags as name → values (every occurrence;
// a flag without a value has one empty value), with their order.
type flagSet struct {
	values map[string][]string
	order  []string
}

// listFlags take every word up to the next flag as their value (argparse's
// nargs='*'), kept joined by commas: Megatron-Core's --recompute-modules
// core_attn moe_act.
var listFlags = []string{"recompute-modules"}

// parseFlags reads --name value, --name=value and lone --name words: a
// word after a flag is its value unless it starts with "--"; a list
// flag's value is every such word. Words that are not flags are returned
// as positional.
func parseFlags(ws []string) (flagSet, []string) {
	fs := flagSet{values: map[string][]string{}}
	var pos []string
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if !strings.HasPrefix(w, "--") || w == "--" {
			pos = append(pos, w)
			continue
		}
		name, val, hasVal := strings.Cut(w[2:], "=")
		for more := !hasVal; more && i+1 < len(ws) && !strings.HasPrefix(ws[i+1], "--"); more = contains(listFlags, name) {
			i++
			val = strings.TrimPrefix(val+","+ws[i], ",")
		}
		if _, seen := fs.values[name]; !seen {
			fs.order = append(fs.order, name)
		}
		fs.values[name] = append(fs.values[name], val)
	}
	return fs, pos
}

// last is the last value given for a flag, and whether it was given.
func (f flagSet) last(name string) (string, bool) {
	v := f.values[name]
	if len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// has reports whether the flag was given.
func (f flagSet) has(name string) bool { _, ok := f.values[name]; return ok }
