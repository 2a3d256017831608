package hugeheap

import (
	"bytes"
	"syscall"
	"unsafe"
)

// madvCollapse is MADV_COLLAPSE (Linux 6.1), which package syscall does
// not name: back a range with huge pages now, copying the pages it has.
const madvCollapse = 25

// heapChunk is the unit in which the Go runtime maps its heap on 64-bit
// Linux (pallocChunkBytes): the chunk holding a live object is mapped
// whole, so advice on it lands on a mapping and not on reserved space.
const heapChunk = 4 << 20

// probe is the object readyStartHeap finds the heap's frontier with.
var probe *[8192]byte

// init readies the heap at start (see the package comment): it runs
// when the packages this one needs are initialised, before the heavier
// package inits (unicode tables, regexps, urfave/cli) and before main.
func init() { readyStartHeap(kernelMode) }

// readyStartHeap readies the heap the process is about to use (see
// readyHeapAt) and says whether it did, mode being thpMode's content.
// Under the "never" mode, or without transparent huge pages (no mode),
// it does nothing: an administrator who turned them off is obeyed.
func readyStartHeap(mode []byte) bool {
	if len(mode) == 0 || bytes.Contains(mode, []byte("[never]")) {
		return false
	}
	// A fresh object of a page or more comes from the page allocator at
	// the lowest free address: the heap's frontier. It is stored in a
	// package variable so that it is on the heap, not on the stack.
	probe = new([8192]byte)
	frontier := uintptr(unsafe.Pointer(probe))
	probe = nil
	readyHeapAt(frontier)
	return true
}

// readyHeapAt backs the heap around addr with huge pages: it advises
// the 4 MiB chunk holding addr (MADV_HUGEPAGE: an untouched 2 MiB half
// of it is one fault when first touched) and collapses the 2 MiB around
// addr into a huge page now (MADV_COLLAPSE: the pages already touched
// are copied, and touching the rest costs nothing more). Both are
// advice: on a kernel without them (MADV_COLLAPSE is Linux 6.1), or if
// the kernel has no huge page to give, the heap stays as it was. It
// returns the range collapsed and the collapse's error, for tests.
func readyHeapAt(addr uintptr) (first, last uintptr, err error) {
	chunk := addr &^ (heapChunk - 1)
	syscall.Syscall(syscall.SYS_MADVISE, chunk, heapChunk, madvHugePage)
	first = addr &^ (hugePage - 1)
	last = first + hugePage
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, first, hugePage, madvCollapse); errno != 0 {
		return first, last, errno
	}
	return first, last, nil
}
