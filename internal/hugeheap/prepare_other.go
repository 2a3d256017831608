//go:build !linux

package hugeheap

// Prepare does nothing here: transparent huge pages are Linux's.
func Prepare(size int64) {}
