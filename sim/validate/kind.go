package validate

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Kind is one way of simulating a row: a function from the row's config to
// the simulated figure, in the unit of the row's published figure.
type Kind struct {
	// Name is what a row's kind field says.
	Name string
	// What says in a line what Simulate computes.
	What string
	// Required and Optional are the config keys it reads; any other key in
	// a row of this kind is an error.
	Required, Optional []string
	// Simulate returns the simulated figure. ErrPending says the model
	// behind the kind does not exist yet.
	Simulate func(config map[string]string) (float64, error)
}

// ErrPending is what a kind returns while the model it needs is not built:
// its rows are listed as pending, never hidden.
var ErrPending = errors.New("the model this row needs is not built yet")

// Kinds returns the built-in row kinds. A new kind is one entry here.
func Kinds() []Kind {
	return []Kind{trainingKind(), layerKind(), collectiveKind(), gemmSummaryKind(), servingKind()}
}

// lookup finds the kind called name in kinds.
func lookup(kinds []Kind, name string) (Kind, error) {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		if k.Name == name {
			return k, nil
		}
		names[i] = k.Name
	}
	return Kind{}, fmt.Errorf("kind: unknown %q; known: %s", name, strings.Join(names, ", "))
}

// checkConfig holds a row's config to the kind's keys.
func (k Kind) checkConfig(r Row) error {
	var errs []error
	for _, key := range k.Required {
		if strings.TrimSpace(r.Config[key]) == "" {
			errs = append(errs, fmt.Errorf("config.%s: missing; a %s row needs it", key, k.Name))
		}
	}
	for _, key := range r.configKeys() {
		if !slices.Contains(k.Required, key) && !slices.Contains(k.Optional, key) {
			errs = append(errs, fmt.Errorf("config.%s: unknown for kind %s; allowed: %s", key, k.Name,
				strings.Join(append(slices.Clone(k.Required), k.Optional...), ", ")))
		}
	}
	return errors.Join(errs...)
}
