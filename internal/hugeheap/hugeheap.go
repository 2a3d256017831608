// Package hugeheap readies the heap a hook about to read a big file will
// need, backed by transparent huge pages, so that touching it costs a few
// page faults instead of thousands.
//
// Why: a hook is a process that lives milliseconds, and every fresh page
// of heap it touches is a page fault. On the VM this project is measured
// on, one costs about 14 µs (`make bench` prints the figure), so a hook on
// a 10,000-entry bimri.md (1.8 MB, about 11 MB of heap) spent a third of
// its time faulting pages in. A 2 MiB huge page is one fault.
//
// How: the Go runtime does not ask for huge pages for its heap, and a
// region must be advised before its first touch. So Prepare allocates one
// object as large as the heap the file will need, which the runtime maps
// fresh and does not touch; advises the kernel to back that range with
// huge pages (madvise MADV_HUGEPAGE); drops the object and collects, which
// hands the range back to the allocator, which then serves the parse from
// it. The collection and the mapping cost about 4 ms, so Prepare does
// nothing below Threshold, nor where advice changes nothing: on other
// platforms, and unless the kernel gives huge pages where advised (mode
// "[madvise]", the default of most distributions; under "always" the heap
// has them already). It is advice: nothing a hook writes or answers
// depends on it.
package hugeheap

import "os"

// Threshold is the heap below which Prepare does nothing: under it the
// faults saved cost less than the collection Prepare runs.
const Threshold = 4 << 20

// HeapPerFileByte is the heap a hook touches per byte of bimri.md it
// maintains, measured on the 10,000-entry file: the bytes read, the
// parsed entries, the rendered file and the view.
const HeapPerFileByte = 6

// ForFiles prepares the heap for a hook that parses the files at paths:
// HeapPerFileByte for each of their bytes. A file it cannot stat counts
// as empty.
func ForFiles(paths ...string) {
	Prepare(heapFor(paths...))
}

// heapFor is the heap ForFiles prepares for paths.
func heapFor(paths ...string) int64 {
	var size int64
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil {
			size += info.Size()
		}
	}
	return size * HeapPerFileByte
}
