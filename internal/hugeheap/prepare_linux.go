package hugeheap

import (
	"bytes"
	"os"
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

// Prepare readies about size bytes of heap backed by huge pages (see the
// package comment); below Threshold, or where advice would change
// nothing, it does nothing.
func Prepare(size int64) { prepare(size, kernelMode) }

// thpMode is where the kernel says when it backs memory with huge pages.
const thpMode = "/sys/kernel/mm/transparent_hugepage/enabled"

// kernelMode is thpMode's content, read once by the package's init for
// both the start and Prepare (nil where there is no such file).
var kernelMode, _ = os.ReadFile(thpMode)

// prepare is Prepare under the kernel's mode as thpMode gives it,
// returning the range it advised (empty if none).
func prepare(size int64, mode []byte) (first, last uintptr) {
	if size < Threshold || !adviceHelps(mode) {
		return 0, 0
	}
	size = min(size, maxHeap)
	region := make([]byte, size)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(region)))
	end := start + uintptr(len(region))
	// Only whole huge pages inside the object: its edges may hold other
	// objects' pages, already touched.
	first = (start + hugePage - 1) &^ (hugePage - 1)
	last = end &^ (hugePage - 1)
	if last <= first {
		return 0, 0
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, first, last-first, madvHugePage); errno != 0 {
		return 0, 0 // refused: the collection below would be for nothing
	}
	// After its last use the object is garbage: the collection frees
	// its range for the allocations to come.
	runtime.KeepAlive(region)
	runtime.GC()
	return first, last
}

// adviceHelps says whether the kernel whose mode (thpMode's content) is
// mode backs memory with huge pages only where advised ("[madvise]").
// Under "always" the heap gets them without advice, under "never" not at
// all, and without the file there are none: in each, Prepare's
// collection would buy nothing.
func adviceHelps(mode []byte) bool {
	return bytes.Contains(mode, []byte("[madvise]"))
}
