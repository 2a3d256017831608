//go:build !linux && !darwin

package safefile

// swap is not at hand here: replacing a file is a rename after the
// caller's last look at it.
func swap(a, b string, exclusive bool) error { return errNoSwap }
