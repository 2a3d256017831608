//go:build unix

package recall

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only. A prompt reads the
// index where it lies in the page cache: no copy onto the heap, whose
// every new page is a fault, and the kernel maps a cached file's pages
// several at a time. unmap releases the mapping.
func mapFile(f *os.File, size int) (data []byte, unmap func(), err error) {
	if size == 0 {
		return nil, func() {}, nil // mmap refuses an empty length
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
