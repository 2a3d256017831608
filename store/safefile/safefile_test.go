//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/matryer/is"
)

// files makes a folder holding a named pipe with no writer, and write,
// which puts a regular file in it.
func files(t *testing.T) (dir, fifo string, write func(name, data string) string) {
	dir = t.TempDir()
	fifo = filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, fifo, func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

func TestRead(t *testing.T) {
	dir, fifo, write := files(t)
	link := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		limit   int64
		want    string
		wantErr error
		says    string
	}{
		{name: "a regular file", path: write("a", "hello\n"), limit: 10, want: "hello\n"},
		{name: "exactly the cap", path: write("b", "12345"), limit: 5, want: "12345"},
		{name: "an empty file", path: write("c", ""), limit: 5, want: ""},
		{name: "over the cap", path: write("d", "123456"), limit: 5, wantErr: errTooLarge, says: "file too large: over its 5 bytes cap"},
		{name: "missing", path: filepath.Join(dir, "none"), limit: 5, wantErr: fs.ErrNotExist},
		{name: "a directory", path: dir, limit: 5, wantErr: errNotRegular, says: "a directory, not a regular file"},
		{name: "a named pipe with no writer", path: fifo, limit: 5, wantErr: errNotRegular, says: "a named pipe, not a regular file"},
		{name: "a link to /dev/zero", path: link, limit: 5, wantErr: errNotRegular, says: "a character device, not a regular file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			data, err := Read(tc.path, tc.limit)
			if tc.wantErr != nil {
				is.True(errors.Is(err, tc.wantErr))
				is.True(strings.Contains(err.Error(), tc.path)) // the error names the file
				is.True(strings.Contains(err.Error(), tc.says))
				return
			}
			is.NoErr(err)
			is.Equal(string(data), tc.want)
		})
	}
}

func TestSize(t *testing.T) {
	is := is.New(t)
	is.Equal(sizeText(16<<20), "16 MiB")
	is.Equal(sizeText(64<<10), "64 KiB")
	is.Equal(sizeText(1000), "1000 bytes")
}

// A file may hold more than Stat said (it grew meanwhile; /proc's files
// say 0): Read reads on to its end, and still refuses it past the cap.
func TestReadPastItsStatedSize(t *testing.T) {
	const path = "/proc/self/status"
	if _, err := os.Stat(path); err != nil {
		t.Skip("no", path)
	}
	is := is.New(t)
	data, err := Read(path, 1<<20)
	is.NoErr(err)
	is.True(strings.HasPrefix(string(data), "Name:"))
	is.True(strings.Contains(string(data), "\nPid:"))
	_, err = Read(path, 10)
	is.True(errors.Is(err, errTooLarge))
}

// Holds compares a file with the bytes a caller read, a piece at a time,
// across the pieces' edges too.
func TestHolds(t *testing.T) {
	dir, fifo, write := files(t)
	big := strings.Repeat("0123456789abcdef", 10000) // 160,000 bytes: three pieces
	changedLast := big[:len(big)-1] + "X"
	changedAtAnEdge := big[:64<<10] + "X" + big[64<<10+1:]
	tests := []struct {
		name, path, want string
		holds            bool
	}{
		{"the same bytes", write("a", "hello\n"), "hello\n", true},
		{"an empty file", write("b", ""), "", true},
		{"the same large file", write("c", big), big, true},
		{"a byte changed at the end", write("d", changedLast), big, false},
		{"a byte changed at a piece's edge", write("e", changedAtAnEdge), big, false},
		{"a shorter file", write("f", big[:len(big)-1]), big, false},
		{"a longer file", write("g", big+"\n"), big, false},
		{"different bytes of the same length", write("h", "HELLO\n"), "hello\n", false},
		{"no file", filepath.Join(dir, "none"), "", false},
		{"a named pipe", fifo, "", false},
	}
	for _, tc := range tests {
		if got := Holds(tc.path, []byte(tc.want)); got != tc.holds {
			t.Errorf("%s: Holds = %v, want %v", tc.name, got, tc.holds)
		}
	}
}
