//go:build js

package timeline

import (
	"fmt"

	"paraplay/sim/units"
)

// checkTransfers checks every message with checkTransfer and that no link
// carries more than its bandwidth (checkCapacity), and returns the last
// end among them. The browser build copies each message out (At): its
// runs are small (the budget bounds them), and the host's walk over the
// records in place (validate_transfers.go), which gives the same errors,
// would cost the download a few kilobytes.
func (tl *Timeline) checkTransfers() (last units.Time, errs []error) {
	ex := newExclusiveLinks(tl)
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		if err := tl.checkTransfer(&x); err != nil {
			errs = append(errs, fmt.Errorf("transfers[%d]: %v", i, err))
			ex.settled = false
		}
		last = max(last, x.End)
		ex.add(x.Start, x.End, x.Path, x.Rates)
	}
	if !ex.settled {
		errs = append(errs, tl.checkCapacity()...)
	}
	return last, errs
}
