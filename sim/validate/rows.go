package validate

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
)

// rowFiles are the gallery's rows, one YAML file each, named so that their
// order is the page's.
//
//go:embed rows/*.yaml
var rowFiles embed.FS

// Rows returns the gallery's rows in file-name order. An error lists every
// bad file with its field errors.
func Rows() ([]Row, error) {
	names, err := fs.Glob(rowFiles, "rows/*.yaml") // sorted
	if err != nil {
		return nil, err
	}
	var rows []Row
	var errs []error
	seen := map[string]string{}
	for _, name := range names {
		data, err := rowFiles.ReadFile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		r, err := ParseRow(data)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if prev, dup := seen[r.ID]; dup {
			errs = append(errs, fmt.Errorf("%s: id %q is already used by %s", name, r.ID, prev))
			continue
		}
		seen[r.ID] = name
		rows = append(rows, r)
	}
	return rows, errors.Join(errs...)
}
