package hugeheap

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"testing"
	"unsafe"

	"github.com/matryer/is"
)

// Above the threshold Prepare leaves a heap range marked for huge pages,
// which /proc/self/smaps shows as the "hg" flag.
func TestPrepareAdvisesHugePages(t *testing.T) {
	if !adviceHelps(kernelMode) {
		t.Skip("this kernel does not back memory with huge pages only where advised")
	}
	is := is.New(t)
	first, last := prepare(8<<20, kernelMode)
	is.True(last-first >= 4<<20) // at least two whole huge pages advised
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps here")
	}
	is.True(advisedHuge(smaps, first, last)) // the whole range is marked "hg"
}

func TestAdviceHelpsOnlyInMadviseMode(t *testing.T) {
	for _, c := range []struct {
		mode string // the kernel file's content; "" for no file
		want bool
	}{
		{"always [madvise] never\n", true},
		{"[always] madvise never\n", false},
		{"always madvise [never]\n", false},
		{"", false},
	} {
		if got := adviceHelps([]byte(c.mode)); got != c.want {
			t.Errorf("adviceHelps(%q) = %v, want %v", c.mode, got, c.want)
		}
	}
}

// Where advice would change nothing, Prepare advises no range, and so
// allocates and collects nothing.
func TestPrepareSkipsWhereAdviceChangesNothing(t *testing.T) {
	is := is.New(t)
	for _, mode := range []string{"always madvise [never]\n", "[always] madvise never\n", ""} {
		first, last := prepare(8<<20, []byte(mode))
		is.Equal(first, last) // mode
	}
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

// After readyHeapAt, the rest of the 2 MiB around an address the heap
// has touched costs no page faults (one huge page backs it), and what
// was written there is still there.
func TestReadyHeapAtMakesTheRestFree(t *testing.T) {
	if !adviceHelps(kernelMode) {
		t.Skip("this kernel does not back memory with huge pages only where advised")
	}
	is := is.New(t)
	// A large object comes fresh from the OS, none of its pages touched.
	buf := make([]byte, 8<<20)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	off := int((base+hugePage-1)&^(hugePage-1) - base)
	buf[off] = 7 // one page touched, as the runtime's start leaves its heap
	_, _, err := readyHeapAt(base + uintptr(off))
	if err == syscall.EINVAL {
		t.Skip("this kernel has no MADV_COLLAPSE")
	}
	is.NoErr(err)
	before := minorFaults(t)
	for i := off; i < off+hugePage; i += 4096 {
		buf[i]++
	}
	// Without the huge page this is 511 faults; a few may come from the
	// test's other goroutines.
	is.True(minorFaults(t)-before < 64)
	is.Equal(buf[off], byte(8)) // the page touched before was kept
}

// Where the administrator turned huge pages off, or the kernel has none,
// the start leaves the heap alone.
func TestStartHeapObeysNever(t *testing.T) {
	is := is.New(t)
	is.True(!readyStartHeap([]byte("always madvise [never]\n")))
	is.True(!readyStartHeap(nil)) // no file
	is.True(readyStartHeap([]byte("always [madvise] never\n")))
}

// minorFaults is the page faults this process has taken so far.
func minorFaults(t *testing.T) int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		t.Fatal(err)
	}
	return u.Minflt
}

// Below the threshold Prepare must cost nothing: it advises no range,
// and so allocates and collects nothing, even where advice would help.
// (Counting collections instead would race with the runtime's own.)
func TestPrepareBelowThresholdDoesNothing(t *testing.T) {
	is := is.New(t)
	first, last := prepare(Threshold-1, []byte("always [madvise] never\n"))
	is.Equal(first, last)
}
