package hugeheap

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/matryer/is"
)

// Above the threshold Prepare collects (to free the range it advised for
// the allocations to come) and leaves a heap range marked for huge
// pages, which /proc/self/smaps shows as the "hg" flag.
func TestPrepareAdvisesHugePages(t *testing.T) {
	enabled, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || bytes.Contains(enabled, []byte("[never]")) {
		t.Skip("no transparent huge pages here")
	}
	is := is.New(t)
	before := numGC()
	first, last := prepare(8 << 20)
	is.True(numGC() > before)    // Prepare collected
	is.True(last-first >= 4<<20) // at least two whole huge pages advised
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps here")
	}
	is.True(advisedHuge(smaps, first, last)) // the whole range is marked "hg"
}

// advisedHuge says whether the mappings in smaps that cover [first, last)
// all carry the huge-page advice flag.
func advisedHuge(smaps []byte, first, last uintptr) bool {
	covered := first
	var lo, hi uint64
	for line := range bytes.Lines(smaps) {
		if n, _ := fmt.Sscanf(string(line), "%x-%x ", &lo, &hi); n == 2 {
			continue
		}
		if !bytes.HasPrefix(line, []byte("VmFlags:")) {
			continue
		}
		if uintptr(lo) <= covered && covered < uintptr(hi) {
			if !bytes.Contains(line, []byte(" hg")) {
				return false
			}
			covered = min(uintptr(hi), last)
			if covered == last {
				return true
			}
		}
	}
	return false
}
