//go:build !unix

package recall

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f where mmap is not at hand.
func mapFile(f *os.File, size int) (data []byte, unmap func(), err error) {
	data = make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	return data, func() {}, nil
}
