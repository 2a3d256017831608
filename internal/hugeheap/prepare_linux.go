package hugeheap

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the platforms Go
// supports on Linux that this matters for (amd64, arm64 with 4 KiB pages).
const hugePage = 2 << 20

// madvHugePage is MADV_HUGEPAGE, which package syscall does not name.
const madvHugePage = 14

// maxHeap bounds the range advised: beyond it (a 16 MiB bimri.md, the
// largest a store accepts, would ask for ~100 MB) the faults saved no
// longer matter next to the work.
const maxHeap = 64 << 20

// Prepare readies about bytes of heap backed by huge pages (see the
// package comment); below Threshold it does nothing.
func Prepare(bytes int64) { prepare(bytes) }

// prepare is Prepare, returning the range it advised (empty if none).
func prepare(bytes int64) (first, last uintptr) {
	if bytes < Threshold {
		return 0, 0
	}
	bytes = min(bytes, maxHeap)
	region := make([]byte, bytes)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(region)))
	end := start + uintptr(len(region))
	// Only whole huge pages inside the object: its edges may hold other
	// objects' pages, already touched.
	first = (start + hugePage - 1) &^ (hugePage - 1)
	last = end &^ (hugePage - 1)
	if last > first {
		// Advice only: an error (no THP in this kernel) changes nothing.
		syscall.Syscall(syscall.SYS_MADVISE, first, last-first, madvHugePage)
	}
	// After its last use the object is garbage: the collection frees
	// its range for the allocations to come.
	runtime.KeepAlive(region)
	runtime.GC()
	return first, last
}
