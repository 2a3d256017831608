//go:build unix

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/atomicfile"
	"github.com/matryer/is"
)

// newFile writes a transaction's file as Render's pieces come, from the
// first byte that differs from the file as read. Its definition is
// Render: it writes a file exactly when Render(f) differs from old (or
// there was none), the file it writes holds Render(f), and the size and
// checksum it counts are Render(f)'s. Checked here where the difference
// falls in the first piece, in a later one, past the end of old (a
// longer file), and nowhere (old is longer: the new file is a part of
// it), on a file of many pieces.
func TestNewFileIsRender(t *testing.T) {
	f := memfile.New(memfile.DefaultConfig())
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for i := range 3000 {
		e := &memfile.Entry{ID: fmt.Sprintf("%08x", i), Importance: 1 + i%5, Date: day.AddDate(0, 0, -i%40), Tags: []string{"store", "tests"},
			Weight: memfile.Weight(10 + i%30), HasWeight: true, Text: fmt.Sprintf("Entry %d: the store writes its file in pieces.", i)}
		f.Tiers[1].Blocks = append(f.Tiers[1].Blocks, memfile.Block{Entry: e})
	}
	want := memfile.Render(f)
	if len(want) < 4*renderPiece {
		t.Fatalf("the file is %d bytes, too few pieces to test", len(want))
	}
	flip := func(at int) []byte {
		old := append([]byte(nil), want...)
		old[at] ^= 1
		return old
	}
	cases := []struct {
		name    string
		old     []byte
		changed bool // a file is written
	}{
		{"same", want, false},
		{"none", nil, true},
		{"first piece differs", flip(10), true},
		{"a later piece differs", flip(3*renderPiece + 7), true},
		{"last byte differs", flip(len(want) - 1), true},
		{"old is shorter", want[:len(want)-100], true},
		{"old is longer", append(append([]byte(nil), want...), "<!-- more -->\n"...), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			path := filepath.Join(t.TempDir(), memfile.MemoryName)
			n := &newFile{name: memfile.MemoryName, old: c.old, changed: c.old == nil, start: func() (*atomicfile.Pending, error) {
				return atomicfile.Create(path, atomicfile.Options{NoSync: true})
			}}
			is.NoErr(n.render(f))
			is.Equal(n.size, len(want))
			is.Equal(n.file != nil, c.changed)
			if n.file == nil {
				return
			}
			is.NoErr(n.file.Commit())
			got, err := os.ReadFile(path)
			is.NoErr(err)
			is.True(string(got) == string(want)) // the file holds Render(f)
		})
	}
}

// An error from start (the file may not be written) or from a write
// stops the rendering, is returned as it is, and leaves no temporary
// file behind.
func TestNewFileErrorsLeaveNothing(t *testing.T) {
	is := is.New(t)
	f := memfile.New(memfile.DefaultConfig())
	dir := t.TempDir()
	path := filepath.Join(dir, memfile.MemoryName)
	refused := errors.New("refused")
	n := &newFile{name: memfile.MemoryName, changed: true, start: func() (*atomicfile.Pending, error) { return nil, refused }}
	is.Equal(n.render(f), refused)
	is.True(n.file == nil)

	// A write that fails: a link's replacement takes no data.
	src := filepath.Join(dir, "src")
	is.NoErr(os.WriteFile(src, nil, 0o644))
	n = &newFile{name: memfile.MemoryName, changed: true, start: func() (*atomicfile.Pending, error) {
		return atomicfile.Link(src, path, atomicfile.Options{NoSync: true})
	}}
	err := n.render(f)
	is.True(errors.Is(err, fs.ErrInvalid))
	is.True(n.file == nil)
	left, _ := filepath.Glob(filepath.Join(dir, atomicfile.TempPrefix+"*"))
	is.Equal(len(left), 0) // the temporary file went
}

// renderPiece is how much memfile.RenderTo gathers before it hands bytes
// over, about.
const renderPiece = 64 << 10
