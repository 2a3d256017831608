package slowtest

import (
	"testing"
)

// recorder is a testing.TB that notes how Gate ended t instead of ending
// this test.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = true
	r.msg = format
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = true
	r.msg = format
}

func TestGate(t *testing.T) {
	for _, tc := range []struct {
		value           string
		skipped, failed bool
	}{
		{"1", false, false},
		{"", true, false},
		{"0", true, false},
		{"yes", false, true},
		{"true", false, true},
	} {
		t.Setenv(env, tc.value)
		r := &recorder{TB: t}
		Gate(r)
		if r.skipped != tc.skipped || r.failed != tc.failed {
			t.Errorf("%s=%q: skipped %v, failed %v; want skipped %v, failed %v", env, tc.value, r.skipped, r.failed, tc.skipped, tc.failed)
		}
	}
}
