package playground

import "paraplay/sim/jsonout"

// The page receives the controls, the metrics and the presets as JSON, in
// the bytes json.Marshal gives these types (their json tags), written by
// hand with jsonout: encoding/json would add about 80 KB to the gzipped
// wasm. TestJSONAsEncodingJSON holds the two equal.

// ControlsJSON is cs as json.Marshal writes it.
func ControlsJSON(cs []Control) ([]byte, error) {
	var w jsonout.Writer
	if cs == nil {
		w.Null()
		return w.Bytes()
	}
	w.Begin('[')
	for i := range cs {
		c := &cs[i]
		w.Begin('{')
		str(&w, "name", c.Name)
		str(&w, "key", c.Key)
		str(&w, "label", c.Label)
		str(&w, "group", c.Group)
		str(&w, "kind", c.Kind)
		if len(c.Options) > 0 {
			w.Key("options")
			w.Begin('[')
			for _, o := range c.Options {
				w.Begin('{')
				str(&w, "value", o.Value)
				str(&w, "label", o.Label)
				if o.Sets != "" {
					str(&w, "sets", o.Sets)
				}
				w.End('}')
			}
			w.End(']')
		}
		if c.Min != nil {
			w.Key("min")
			w.Float(*c.Min)
		}
		if c.Max != nil {
			w.Key("max")
			w.Float(*c.Max)
		}
		if c.Step != 0 {
			w.Key("step")
			w.Float(c.Step)
		}
		str(&w, "value", c.Value)
		str(&w, "help", c.Help)
		if c.Inactive {
			w.Key("inactive")
			w.Bool(true)
		}
		w.End('}')
	}
	w.End(']')
	return w.Bytes()
}

// MetricsJSON is m as json.Marshal writes it.
func MetricsJSON(m Metrics) ([]byte, error) {
	var w jsonout.Writer
	w.Begin('{')
	str(&w, "title", m.Title)
	str(&w, "fidelity", m.Fidelity)
	str(&w, "iteration", m.Iteration)
	str(&w, "compute", m.Compute)
	str(&w, "communication", m.Communication)
	str(&w, "exposed", m.Exposed)
	w.Key("collectives")
	if m.Collectives == nil {
		w.Null()
	} else {
		w.Begin('[')
		for _, c := range m.Collectives {
			w.Begin('{')
			str(&w, "name", c.Name)
			str(&w, "algorithm", c.Algorithm)
			w.Key("ranks")
			w.Int(int64(c.Ranks))
			str(&w, "bytes", c.Bytes)
			str(&w, "time", c.Time)
			str(&w, "algbw", c.AlgBW)
			str(&w, "busbw", c.BusBW)
			w.End('}')
		}
		w.End(']')
	}
	w.Key("gpus")
	if m.GPUs == nil {
		w.Null()
	} else {
		w.Begin('[')
		for _, g := range m.GPUs {
			w.Begin('{')
			str(&w, "name", g.Name)
			w.Key("busy")
			w.Float(g.Busy)
			str(&w, "busyPct", g.BusyPct)
			str(&w, "compute", g.Compute)
			str(&w, "comm", g.Comm)
			w.End('}')
		}
		w.End(']')
	}
	if len(m.Rows) > 0 {
		w.Key("rows")
		w.Begin('[')
		for _, r := range m.Rows {
			w.Begin('{')
			str(&w, "key", r.Key)
			str(&w, "value", r.Value)
			w.End('}')
		}
		w.End(']')
	}
	for _, f := range []struct {
		key string
		ns  int64
	}{{"iterationNs", m.IterationNS}, {"computeNs", m.ComputeNS}, {"communicationNs", m.CommunicationNS}, {"exposedNs", m.ExposedNS}} {
		w.Key(f.key)
		w.Int(f.ns)
	}
	w.End('}')
	return w.Bytes()
}

// PresetsJSON is ps as json.Marshal writes it.
func PresetsJSON(ps []Preset) ([]byte, error) {
	var w jsonout.Writer
	if ps == nil {
		w.Null()
		return w.Bytes()
	}
	w.Begin('[')
	for _, p := range ps {
		w.Begin('{')
		str(&w, "label", p.Label)
		str(&w, "lesson", p.Lesson)
		str(&w, "query", p.Query)
		w.End('}')
	}
	w.End(']')
	return w.Bytes()
}

func str(w *jsonout.Writer, key, value string) {
	w.Key(key)
	w.String(value)
}
