// Package safefile is the one way bimri-hook reads and replaces a file.
// A repository can commit a named pipe or a link to /dev/zero where
// bimri.md should be, which os.ReadFile would hang on or fill memory
// with: Open refuses anything but a regular file without blocking, and
// Read reads at most a cap. Files are replaced as google/renameio does (a
// synced temporary file renamed over the target, the folder synced; a new
// file's mode follows the umask), plus writes without fsync for
// bookkeeping, the rename apart for a writer of several files, a second
// name by hard link, and temporary names a later run can sweep.
package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Errors are *fs.PathError, as os.Open's are.
var (
	errNotRegular = errors.New("not a regular file")
	errTooLarge   = errors.New("file too large")
)

// Open opens the regular file at path for reading, checking before the
// open and again after it (the path may have changed); the open cannot
// block on a pipe.
func Open(path string) (*os.File, fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := regular(path, info); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err = f.Stat()
	if err == nil {
		err = regular(path, info)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// Read reads the whole regular file at path, refusing one larger than
// limit bytes, even one that grows while it is read.
func Read(path string, limit int64) ([]byte, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > limit {
		return nil, tooLarge(path, limit)
	}
	data := make([]byte, 0, info.Size()+1) // its size, and room to see EOF without growing
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		switch {
		case int64(len(data)) > limit:
			return nil, tooLarge(path, limit)
		case err == io.EOF:
			return data, nil
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		case len(data) == cap(data): // it grew since Stat
			data = append(data, 0)[:len(data)]
		}
	}
}

// Holds says whether the regular file at path holds exactly want, read
// and compared a piece at a time: a commit asks it of bimri.md up to three
// times, and a whole copy each time would be fresh memory to no purpose.
// A file that does not read does not hold want.
func Holds(path string, want []byte) bool {
	f, info, err := Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if info.Size() != int64(len(want)) {
		return false
	}
	buf := make([]byte, min(len(want)+1, 64<<10)) // room to see EOF, or a file grown since Stat
	for {
		n, err := f.Read(buf)
		if n > len(want) || !bytes.Equal(buf[:n], want[:n]) {
			return false
		}
		want = want[n:]
		switch {
		case err == io.EOF:
			return len(want) == 0
		case err != nil:
			return false
		}
	}
}

func tooLarge(path string, limit int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: over its %s cap", errTooLarge, sizeText(limit))}
}

// regular refuses what is not a regular file, naming what it is (a
// character device is a device too, so it is named first).
func regular(path string, info fs.FileInfo) error {
	if info.Mode().IsRegular() {
		return nil
	}
	what := "a special file"
	for _, k := range []struct {
		bit  fs.FileMode
		what string
	}{{fs.ModeDir, "a directory"}, {fs.ModeNamedPipe, "a named pipe"}, {fs.ModeCharDevice, "a character device"}, {fs.ModeDevice, "a device"}, {fs.ModeSocket, "a socket"}} {
		if info.Mode()&k.bit != 0 {
			what = k.what
			break
		}
	}
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%s, %w", what, errNotRegular)}
}

// sizeText writes a cap in MiB or KiB when it is a whole number of them.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
