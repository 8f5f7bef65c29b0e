package scenario

import (
	"fmt"
	"reflect"
	"strconv"

	"paraplay/sim/units"
)

// The types a section's Row may have.
var (
	timeType      = reflect.TypeFor[units.Time]()
	bandwidthType = reflect.TypeFor[units.Bandwidth]()
	bytesType     = reflect.TypeFor[units.Bytes]()
	speedsType    = reflect.TypeFor[[]float64]()
)

// field makes the field-table row of r in section sec: it reads and
// writes the Go field r.Field of the section's value. It panics when that
// field does not exist or has a type rows cannot hold: a mistake in the
// program, found when the strategy registers.
func (r Row) field(sec Section) Field {
	t := reflect.TypeOf(sec.Default)
	sf, ok := t.FieldByName(r.Field)
	if !ok {
		panic(fmt.Sprintf("scenario: section %s has no field %s", sec.Name, r.Field))
	}
	help := r.Help
	if help == "" {
		help = typeHelp(sf.Type)
	}
	if help == "" {
		panic(fmt.Sprintf("scenario: field %s.%s has type %v, which a row cannot hold", sec.Name, r.Field, sf.Type))
	}
	name := sec.Name
	return Field{Key: name + "." + r.Key, Param: r.Param, Help: help,
		Get: func(s *Scenario) string {
			return r.format(reflect.ValueOf(sectionValue(s, name)).FieldByIndex(sf.Index))
		},
		Set: func(s *Scenario, text string) error {
			v := reflect.New(t).Elem()
			v.Set(reflect.ValueOf(sectionValue(s, name)))
			if err := r.parse(text, v.FieldByIndex(sf.Index)); err != nil {
				return err // the section keeps its value: see assign
			}
			putValue(s, name, v.Interface())
			return nil
		}}
}

// typeHelp is the usual help of a row of type t, or "" for a type rows
// cannot hold.
func typeHelp(t reflect.Type) string {
	switch {
	case t == timeType:
		return "e.g. 1ms"
	case t == bandwidthType:
		return "e.g. 100GB/s"
	case t == bytesType:
		return "e.g. 256MiB"
	case t == speedsType:
		return "speed factors, e.g. 1,1,0.5"
	}
	switch t.Kind() {
	case reflect.Int:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "text"
	}
	return ""
}

// format writes v as the shared keys write a value of its type.
func (r Row) format(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case units.Time:
		return x.String()
	case units.Bytes:
		return x.String()
	case units.Bandwidth:
		if r.ZeroDefault {
			return formatBandwidthOrZero(x)
		}
		return x.String()
	case []float64:
		return formatSpeeds(x)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return fmt.Sprint(v.Interface())
}

// parse reads text into v, leaving v as it was on an error.
func (r Row) parse(text string, v reflect.Value) error {
	var x any
	var err error
	switch v.Interface().(type) {
	case units.Time:
		x, err = units.ParseTime(text)
	case units.Bytes:
		x, err = units.ParseBytes(text)
	case units.Bandwidth:
		if r.ZeroDefault {
			x, err = parseBandwidthOrZero(text)
		} else {
			x, err = units.ParseBandwidth(text)
		}
	case []float64:
		x, err = parseSpeeds(text)
	case int:
		var n int
		err = parseInt(text, &n)
		x = n
	case float64:
		var f float64
		err = parseFloat(text, &f)
		x = f
	case bool:
		x, err = parseBool(text)
	case string:
		x = text
		if r.Trim {
			x = trimmed(text)
		}
	}
	if err != nil {
		return err
	}
	v.Set(reflect.ValueOf(x).Convert(v.Type()))
	return nil
}
