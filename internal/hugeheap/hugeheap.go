// Package hugeheap backs a hook's heap with transparent huge pages, so
// that touching it costs a few page faults instead of hundreds or
// thousands.
//
// Why: a hook is a process that lives milliseconds, and every fresh page
// of heap it touches is a page fault. On the VM this project is measured
// on, one costs about 14 µs (`make bench` prints the figure), so page
// faults were the largest share of every hook's time: a steady
// SessionStart touched ~230 heap pages, and a hook on a 10,000-entry
// bimri.md (1.8 MB, about 8 MB of heap) thousands. A 2 MiB huge page is
// one fault; zeroing it costs what 10 to 70 small faults do (0.15-1 ms:
// less when the memory behind it was used a moment before).
//
// At start (Linux only; importing the package is enough): the package's
// init, which runs before the heavier package inits and main, collapses
// the 2 MiB of heap around the allocator's frontier into a huge page
// (madvise MADV_COLLAPSE, Linux 6.1; the pages the runtime already
// touched are copied) and advises the rest of the 4 MiB chunk the
// runtime has mapped there (MADV_HUGEPAGE). A hook on the full memory
// file then takes ~280 page faults instead of ~400, most of the rest
// being the runtime's own start and the binary's code. It costs one read
// of the kernel's mode, two system calls (the collapse 0.3-1 ms here,
// more on a loaded machine, as the kernel first drains every CPU's page
// lists; in about half the runs 4-5 ms, when the host must back the huge
// page again; on a machine whose memory is fragmented it may compact
// memory first: a slower start, never a hang), and up to 4 MB more
// resident memory. With pauses between hooks, as in real use, that
// evens out against the faults it saves (README, the bench with GAP);
// back to back and under load it is a clear gain. Populating the pages ahead instead
// (MADV_POPULATE_WRITE, 128 to 512 pages) measured slower.
//
// For a big file: the Go runtime does not ask for huge pages for its
// heap, and a region must be advised before its first touch. So Prepare
// allocates one object as large as the heap the file will need, which
// the runtime maps fresh and does not touch; advises the kernel to back
// that range with huge pages (madvise MADV_HUGEPAGE); drops the object
// and collects, which hands the range back to the allocator, which then
// serves the parse from it. The collection and the mapping cost about 4
// ms, so Prepare does nothing below Threshold, nor where advice changes
// nothing: on other platforms, and unless the kernel gives huge pages
// where advised (mode "[madvise]", the default of most distributions;
// under "always" the heap has them already).
//
// All of it is advice: nothing a hook writes or answers depends on it,
// and where the kernel refuses, the heap stays as it was. Under the
// "never" mode the package does nothing.
package hugeheap

import "os"

// Threshold is the heap below which Prepare does nothing: under it the
// faults saved cost less than the collection Prepare runs.
const Threshold = 4 << 20

// HeapPerFileByte is the heap a hook may touch per byte of bimri.md it
// maintains: the bytes read, the parse's copy of them, its lines and
// entries, the rendered file and the view (about 6.5 on the
// 10,000-entry file). Too little leaves the last of the parse on small
// pages, each a fault (at 6, some 650 more on that file); much more
// zeroes huge pages the hook never fills (at 10, some 200 more).
const HeapPerFileByte = 8

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
