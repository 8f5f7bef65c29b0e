package launch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/training"
)

// How Megatron-LM deals layers out to pipeline stages (read in
// megatron/core/transformer/transformer_block.py, get_num_layers_to_build,
// and megatron/core/transformer/pipeline_parallel_layer_layout.py,
// PipelineParallelLayerLayout, of NVIDIA/Megatron-LM):
//
//   - By default every pipeline rank builds num_layers ÷ pp layers, and with
//     v virtual stages each of its chunks a v-th of them; Megatron asserts
//     both divide. Chunk c of rank d is model stage c·pp + d, which is
//     ParaPlay's interleaved layout.
//   - --decoder-first-pipeline-num-layers F and
//     --decoder-last-pipeline-num-layers L give the first and last rank F
//     and L layers and the middle ranks an equal share of the rest; with v
//     chunks each rank's count is again split evenly over its chunks. The
//     counts are per rank, so "one layer fewer on the first and last
//     chunk" (parallel.first_last_fewer under interleaving) has no form in
//     these flags.
//   - --pipeline-model-parallel-layout lists every virtual stage in model
//     order (stage index vpp_rank·pp + pp_rank), separated by "|": E the
//     embedding, t a transformer layer, L the loss (output head), m an MTP
//     layer; "(…)*n" and "x*n" repeat, commas are cosmetic. It sets v to
//     the number of stages ÷ pp and excludes the other virtual-stage flags.
//     Any split ParaPlay simulates on 1F1B or interleaved 1F1B has this form.

// megatronSplit adds the flags of the plan's layer split over its model
// stages, and the virtual stages with it.
func megatronSplit(f *pairs, p scenario.Parallel, layers int) error {
	v := 1
	if p.Schedule == "interleaved" {
		v = p.VirtualStages
	}
	counts, err := training.StageLayers(p, layers, p.PP*v)
	if err != nil {
		return err
	}
	switch {
	case !slices.ContainsFunc(counts, func(n int) bool { return n != counts[0] }):
		if v > 1 {
			f.int("num-virtual-stages-per-pipeline-rank", v)
		}
	case v == 1 && !slices.Contains(counts, 0) && (len(counts) == 2 || !slices.ContainsFunc(counts[1:len(counts)-1], func(n int) bool { return n != counts[1] })):
		f.int("decoder-first-pipeline-num-layers", counts[0]).int("decoder-last-pipeline-num-layers", counts[len(counts)-1])
	default:
		f.add("pipeline-model-parallel-layout", layoutString(counts))
	}
	return nil
}

// layoutString writes counts (layers per model stage) as a
// --pipeline-model-parallel-layout: the embedding on the first stage, the
// loss on the last, runs of equal middle stages as "(t*n|)*k".
func layoutString(counts []int) string {
	n := len(counts)
	parts := make([]string, n)
	for k, c := range counts {
		if k == 0 {
			parts[k] = "E"
		}
		switch {
		case c == 1:
			parts[k] += "t"
		case c > 1:
			parts[k] += "t*" + strconv.Itoa(c)
		}
		if k == n-1 {
			parts[k] += "L"
		}
	}
	var b strings.Builder
	b.WriteString(parts[0])
	sep := "|"
	for k := 1; k < n; {
		j := k
		for k < n-1 && j < n-1 && parts[j] == parts[k] {
			j++
		}
		if j-k >= 2 {
			// The group ends in "|": a comma (cosmetic) separates what follows.
			fmt.Fprintf(&b, "%s(%s|)*%d", sep, parts[k], j-k)
			sep, k = ",", j
			continue
		}
		b.WriteString(sep + parts[k])
		sep, k = "|", k+1
	}
	return b.String()
}

// parseLayout reads a --pipeline-model-parallel-layout into layers per
// model stage, as Megatron-LM's parse_str_to_list does: commas dropped,
// "(…)*n" then "x*n" repeated, stages split at "|". The embedding must
// open the first stage and the loss close the last (ParaPlay keeps them
// there); MTP layers are refused.
func parseLayout(text string) ([]int, error) {
	text = strings.ReplaceAll(text, ",", "")
	var b strings.Builder
	for text != "" {
		i := strings.IndexByte(text, '(')
		if i < 0 {
			b.WriteString(text)
			break
		}
		b.WriteString(text[:i])
		j := strings.IndexByte(text[i:], ')')
		if j < 0 || strings.ContainsRune(text[i+1:i+j], '(') {
			return nil, fmt.Errorf("%q: a \"(\" without its \")\" (groups do not nest)", text[i:])
		}
		body, rest := text[i+1:i+j], text[i+j+1:]
		k, rest, ok := repeat(rest)
		if !ok {
			return nil, fmt.Errorf("%q: a group must be followed by *n", text[i:])
		}
		if b.Len()+k*len(body) > MaxLine {
			return nil, fmt.Errorf("unrolls to more than %d characters", MaxLine)
		}
		b.WriteString(strings.Repeat(body, k))
		text = rest
	}
	var counts []int
	stages := strings.Split(b.String(), "|")
	if len(stages) > scenario.MaxModelStages {
		return nil, fmt.Errorf("%d stages; at most %d", len(stages), scenario.MaxModelStages)
	}
	for si, st := range stages {
		n := 0
		for i := 0; i < len(st); i++ {
			c, k := st[i], 1
			if rest := st[i+1:]; strings.HasPrefix(rest, "*") {
				var ok bool
				if k, rest, ok = repeat(rest); !ok {
					return nil, fmt.Errorf("stage %d: %q: * needs a count", si, st)
				}
				i = len(st) - len(rest) - 1
			}
			switch {
			case c == 't':
				n += k
			case c == 'E' && si == 0 && i == 0 && k == 1, c == 'L' && si == len(stages)-1 && i == len(st)-1 && k == 1:
			case c == 'E' || c == 'L':
				return nil, fmt.Errorf("stage %d: %q: ParaPlay keeps the embedding (E) at the start of the first stage and the loss (L) at the end of the last, once each", si, st)
			case c == 'm':
				return nil, fmt.Errorf("stage %d: multi-token prediction layers (m) are not modelled", si)
			default:
				return nil, fmt.Errorf("stage %d: %q: unknown layer %q; known E, t, L, m", si, st, string(c))
			}
			if n > scenario.MaxStageLayers {
				return nil, fmt.Errorf("stage %d has over %d layers", si, scenario.MaxStageLayers)
			}
		}
		counts = append(counts, n)
	}
	if !strings.HasPrefix(stages[0], "E") || !strings.HasSuffix(stages[len(stages)-1], "L") {
		return nil, fmt.Errorf("the first stage must open with the embedding (E) and the last end with the loss (L)")
	}
	return counts, nil
}

// repeat reads "*n" (0 ≤ n ≤ MaxModelStages; Megatron-LM's \d+ takes 0)
// off the front of s.
func repeat(s string) (int, string, bool) {
	if !strings.HasPrefix(s, "*") {
		return 0, s, false
	}
	d := 1
	for d < len(s) && s[d] >= '0' && s[d] <= '9' {
		d++
	}
	n, err := strconv.Atoi(s[1:d])
	if err != nil || n < 0 || n > scenario.MaxModelStages {
		return 0, s, false
	}
	return n, s[d:], true
}

// megatronReadSplit reads how the layers are split (the layout, the first
// and last ranks' counts, or the default even split) into p, in the form
// ParaPlay writes it: nothing for the equal split, first_last_fewer when
// that is the split, else layers_per_stage.
func megatronReadSplit(r *reader, p *scenario.Parallel) {
	layers := r.int("num-layers", 0)
	layout, hasLayout := r.f.last("pipeline-model-parallel-layout")
	hasFL := r.f.has("decoder-first-pipeline-num-layers") || r.f.has("decoder-last-pipeline-num-layers")
	v := 1
	if p.Schedule == "interleaved" {
		v = p.VirtualStages
	}
	var counts []int
	switch {
	case hasLayout && (hasFL || r.f.has("num-virtual-stages-per-pipeline-rank") || r.f.has("num-layers-per-virtual-pipeline-stage")):
		r.bad("pipeline-model-parallel-layout", "given with --decoder-first/last-pipeline-num-layers or a virtual-stage flag; Megatron-LM takes one of them")
		return
	case hasLayout:
		c, err := parseLayout(layout)
		if err == nil && len(c)%p.PP != 0 {
			err = fmt.Errorf("%d stages are not a multiple of pp %d", len(c), p.PP)
		}
		if err != nil {
			r.bad("pipeline-model-parallel-layout", "%v", err)
			return
		}
		if v = len(c) / p.PP; v > 1 {
			p.Schedule, p.VirtualStages = "interleaved", v
		}
		counts = c
	case hasFL:
		counts = megatronFirstLast(r, p.PP, v, layers)
	case layers%(p.PP*v) != 0:
		r.bad("num-layers", "%d is not a multiple of pp %d × %d virtual stages: Megatron-LM splits evenly only, unless --pipeline-model-parallel-layout or --decoder-first/last-pipeline-num-layers say how", layers, p.PP, v)
	}
	if counts == nil {
		return
	}
	if sum := sumOf(counts); sum != layers {
		r.bad("num-layers", "%d, but the split gives the stages %d", layers, sum)
		return
	}
	q := *p
	for n := 0; n <= scenario.MaxFirstLastFewer; n++ {
		q.FirstLastFewer = n
		if c, err := training.StageLayers(q, layers, len(counts)); err == nil && slices.Equal(c, counts) {
			p.FirstLastFewer = n
			return
		}
	}
	p.LayersPerStage = counts
}

// megatronFirstLast is the layers of each model stage under
// --decoder-first/last-pipeline-num-layers: the given ranks their counts,
// the others an equal share of the rest, each rank's split evenly over its
// v chunks (chunk c of rank d is stage c·pp + d).
func megatronFirstLast(r *reader, pp, v, layers int) []int {
	if pp < 2 {
		r.bad("decoder-first-pipeline-num-layers", "applies with --pipeline-model-parallel-size 2 or more")
		return nil
	}
	rank := make([]int, pp)
	rest, left := layers, pp
	given := func(flag string, d int) {
		if s, ok := r.f.last(flag); ok {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n > layers {
				r.bad(flag, "%q; want a whole number in 0..%d (--num-layers)", s, layers)
				n = 0
			}
			rank[d], rest, left = -1-n, rest-n, left-1 // −1−n marks a given count
		}
	}
	given("decoder-first-pipeline-num-layers", 0)
	given("decoder-last-pipeline-num-layers", pp-1)
	if left > 0 && (rest < 0 || rest%left != 0) {
		r.bad("decoder-first-pipeline-num-layers", "leaves %d layers for %d middle ranks; Megatron-LM needs them to divide evenly", rest, left)
		return nil
	}
	counts := make([]int, pp*v)
	for d, n := range rank {
		if n < 0 {
			n = -1 - n
		} else {
			n = rest / left
		}
		if n%v != 0 {
			r.bad("decoder-first-pipeline-num-layers", "rank %d's %d layers do not split evenly over %d virtual stages", d, n, v)
			return nil
		}
		for c := range v {
			counts[c*pp+d] = n / v
		}
	}
	return counts
}

func sumOf(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
