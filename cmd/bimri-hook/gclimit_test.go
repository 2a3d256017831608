package main

import (
	"testing"

	"github.com/bimri/bimri-hook/memfile"
)

// A hook's live heap is about twice the bytes of the files it reads
// (measured: some 170 MB for a recall prompt over a 16 MiB bimri.md and a
// 64 MiB archive, the largest a store accepts). A soft memory limit at or
// under it makes the collector run continuously, so the limit keeps three
// times that.
func TestHookMemoryLimitIsAboveTheLargestFilesLiveHeap(t *testing.T) {
	if largest := memfile.MaxMemorySize + memfile.MaxArchiveSize; hookMemoryLimit < 6*largest {
		t.Fatalf("hook memory limit %d MiB is under 6x the largest files (%d MiB): a hook on them would collect without end", hookMemoryLimit>>20, largest>>20)
	}
}
