package pipeline

import "testing"

// TestCheckAgreesWithNew: Check accepts exactly what New builds, with the
// same error, and ModelStages counts the model stages New's schedule has.
func TestCheckAgreesWithNew(t *testing.T) {
	for _, name := range append(Names(), "nope") {
		for _, p := range []int{0, 1, 2, 3, 4} {
			for _, m := range []int{0, 1, 2, 3, 4, 6, 8, 9} {
				for _, v := range []int{-1, 0, 1, 2, 3, 4} {
					sch, errNew := New(name, p, m, v)
					errCheck := Check(name, p, m, v)
					if n, err := ModelStages(name, p, m, v); errNew == nil && (err != nil || n != sch.ModelStages()) {
						t.Errorf("%s p=%d m=%d v=%d: ModelStages %d, %v; the schedule has %d", name, p, m, v, n, err, sch.ModelStages())
					}
					if (errNew == nil) != (errCheck == nil) || (errNew != nil && errNew.Error() != errCheck.Error()) {
						t.Errorf("%s p=%d m=%d v=%d: New says %v, Check says %v", name, p, m, v, errNew, errCheck)
					}
				}
			}
		}
	}
}
